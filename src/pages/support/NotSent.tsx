import type { ReactNode } from 'react';
import { Card } from '../../ui/Card';

/**
 * What a form that no call takes (the sales request, the support ticket: the specification
 * leaves them unwired) shows once it is filled in: plainly that nothing was sent, and the
 * address to write to instead, with the subject filled in.
 */
export function NotSent(props: {
  title: string;
  lead: ReactNode;
  email: string;
  subject: string;
  after?: ReactNode;
  onBack: () => void;
}) {
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{props.title}</h1>
      <Card>
        <p role="status">
          {props.lead} Please e-mail{' '}
          <a href={`mailto:${props.email}?subject=${encodeURIComponent(props.subject)}`}>{props.email}</a>
          {props.after ?? '.'}
        </p>
        <button type="button" className="btn btn-secondary" onClick={props.onBack}>
          Back to the form
        </button>
      </Card>
    </div>
  );
}
