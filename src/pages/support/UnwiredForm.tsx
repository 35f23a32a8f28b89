import { useState, type FormEvent, type ReactNode } from 'react';
import { Card } from '../../ui/Card';
import type { FormErrors } from '../../ui/form';
import { NotSent } from './NotSent';

type FieldProblems = Record<string, string | undefined>;

/**
 * The page of a form that no call takes (the sales request, the support ticket): its fields are
 * checked on submit (the first problem takes focus), and once they pass the page says plainly
 * that nothing was sent and where to write instead (NotSent).
 */
export function UnwiredForm(props: {
  title: string;
  /** under the title */
  lead?: ReactNode;
  /** the page's useFormErrors(), whose errors its fields show */
  formErrors: FormErrors;
  /** the problems of the fields as filled in, by field; none: the form passes */
  check: () => FieldProblems;
  submitLabel: string;
  /** what the page says once the form passes */
  notSent: { lead: ReactNode; email: string; subject: string; after?: ReactNode };
  /** under the form */
  footer?: ReactNode;
  children: ReactNode;
}) {
  const { formErrors } = props;
  const [submitted, setSubmitted] = useState(false);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const problems = Object.fromEntries(
      Object.entries(props.check()).filter((entry): entry is [string, string] => Boolean(entry[1])),
    );
    if (Object.keys(problems).length) formErrors.invalid(problems);
    else {
      formErrors.clear();
      setSubmitted(true);
    }
  };

  if (submitted) return <NotSent title={props.title} {...props.notSent} onBack={() => setSubmitted(false)} />;

  return (
    <div className="page page-narrow">
      <h1 className="page-title">{props.title}</h1>
      {props.lead}
      <Card>
        <form onSubmit={onSubmit} noValidate className="form" ref={formErrors.ref}>
          {props.children}
          <button type="submit" className="btn btn-primary">
            {props.submitLabel}
          </button>
        </form>
      </Card>
      {props.footer}
    </div>
  );
}
