import { useEffect, useRef, useState } from 'react';
import {
  IDV_DECISION_REASONS,
  IDV_SIDE_LABELS,
  IDV_STATUS_TONES,
  documentTypeOf,
  type IdvDecision,
  type IdvReview,
} from '../../../../api/contract/apps/identity-verification';
import type { TaskDetail } from '../../../../api/contract/platform';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { formatCalendarDay, formatDateTime } from '../../../ui/format';
import { apiFields, useFormErrors } from '../../../ui/form';
import { StatusBadge } from '../_frame/task-cells';
import { TaskFacts, Timeline } from '../_frame/TaskFacts';

// One case on the review screen: the photos (through short-lived signed links), the MRZ the
// reviewer types, the checks that then run, who holds the case, and the decision. Nothing here
// reads text from images: no OCR runs. The queue around it (queue.tsx) moves between cases.

const DECISION_LABELS: Record<IdvDecision, string> = {
  approved: 'Approve',
  declined: 'Decline',
  resubmission_requested: 'Request resubmission',
};
/** what a toast says once a decision is saved: the outcome, in words */
export const DECISION_OUTCOMES: Record<IdvDecision, string> = {
  approved: 'Verification approved',
  declined: 'Verification declined',
  resubmission_requested: 'New photos requested',
};
const DONE_LABELS: Record<IdvDecision, string> = {
  approved: 'Approved',
  declined: 'Declined',
  resubmission_requested: 'New photos requested',
};
const CHECK_STATUS: Record<string, string> = { passed: 'Passed', failed: 'Failed', not_run: 'Not run' };

function Photos({ review }: { review: IdvReview }) {
  if (review.imagesRedactedAt)
    return <p className="notice">Photos deleted on {formatDateTime(review.imagesRedactedAt)} under the retention settings.</p>;
  if (!review.images.length) return <p className="muted">No photos yet.</p>;
  return (
    <div className="idv-photos">
      {review.images.map((image) => (
        <figure key={image.side} className="idv-photo">
          {image.url ? <img src={image.url} alt={IDV_SIDE_LABELS[image.side]} /> : <span className="muted">Deleted</span>}
          <figcaption>
            {IDV_SIDE_LABELS[image.side]}
            {image.url && (
              <>
                {' · '}
                <a href={image.url} target="_blank" rel="noreferrer">
                  Open full size
                </a>
              </>
            )}
          </figcaption>
        </figure>
      ))}
    </div>
  );
}

function MrzEntry({ onDone, id }: { id: string; onDone: (r: IdvReview) => void }) {
  const api = useApi();
  const [lines, setLines] = useState('');
  const formErrors = useFormErrors();
  const run = async () => {
    try {
      const r = await api.post<IdvReview>(`/identity-verification/sessions/${id}/mrz`, { lines });
      formErrors.clear();
      onDone(r);
    } catch (err) {
      throw formErrors.invalid({ lines: apiFields(err)?.lines ?? errorMessage(err) });
    }
  };
  const error = formErrors.errors.lines;
  return (
    <form
      className="form"
      noValidate
      onSubmit={(e) => e.preventDefault()}
      aria-label="Machine-readable zone"
      ref={formErrors.ref}
    >
      <p className="notice" role="note">
        Text recognition (OCR) is not available here. Type the machine-readable zone from the photo exactly as printed: the 2 or 3
        lines of capital letters, digits and &lt; at the bottom of a passport&apos;s photo page or on the back of an ID card, one
        line per row. The check digits and the other checks then run on what you typed.
      </p>
      <Field label="MRZ lines" error={error} hint="For example P<UTOERIKSSON<<ANNA<MARIA<<<… on the first line.">
        {(control) => (
          <textarea
            className="input idv-mrz"
            rows={3}
            spellCheck={false}
            autoCapitalize="characters"
            autoComplete="off"
            value={lines}
            onChange={(e) => setLines(e.target.value)}
            {...control}
          />
        )}
      </Field>
      <div className="form-actions">
        <Button type="submit" onClick={run} successLabel="Checks done">
          Run checks
        </Button>
      </div>
    </form>
  );
}

/** A keyboard shortcut's request to the decision form: A (approve) or D (decline); `n` makes each press new. */
export type DecisionCommand = { decision: IdvDecision; n: number };

function DecisionForm({
  id,
  onDone,
  mrzTyped,
  command,
}: {
  id: string;
  mrzTyped: boolean;
  onDone: (r: IdvReview) => void;
  command?: DecisionCommand | null;
}) {
  const api = useApi();
  const [decision, setDecision] = useState<IdvDecision>('approved');
  const reasonRef = useRef<HTMLSelectElement | null>(null);
  // A or D: the decision is chosen and the reason list takes focus (Enter there confirms)
  useEffect(() => {
    if (!command) return;
    setDecision(command.decision);
    setReason('');
    formErrors.clear();
    requestAnimationFrame(() => reasonRef.current?.focus());
  }, [command]); // eslint-disable-line react-hooks/exhaustive-deps
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const formErrors = useFormErrors();
  const errors = formErrors.errors;
  const submit = async () => {
    if (!reason) throw formErrors.invalid({ reason: 'Choose a reason' });
    try {
      const r = await api.post<IdvReview>(`/identity-verification/sessions/${id}/decision`, {
        decision,
        reason,
        ...(note.trim() ? { note } : {}),
      });
      toast.success(DECISION_OUTCOMES[decision]);
      onDone(r);
    } catch (err) {
      const invalid = formErrors.fromAnswer(err);
      if (invalid) throw invalid;
      toast.error('The decision was not saved', errorMessage(err), err);
      throw err;
    }
  };
  return (
    <form className="form" noValidate onSubmit={(e) => e.preventDefault()} aria-label="Decision" ref={formErrors.ref}>
      <fieldset className="choices">
        <legend>Decision</legend>
        {(Object.keys(DECISION_LABELS) as IdvDecision[]).map((d) => (
          <label key={d} className="checkbox">
            <input
              type="radio"
              name="decision"
              value={d}
              checked={decision === d}
              onChange={() => {
                setDecision(d);
                setReason('');
                formErrors.clear();
              }}
            />{' '}
            {DECISION_LABELS[d]}
          </label>
        ))}
      </fieldset>
      {decision === 'approved' && !mrzTyped && <p className="muted">Type the MRZ and run the checks before approving.</p>}
      <Field label="Reason" error={errors.reason} required>
        {(control) => (
          <select
            className="input"
            ref={reasonRef}
            value={reason}
            onChange={(e) => (setReason(e.target.value), formErrors.clear())}
            onKeyDown={(e) => {
              // Enter on the chosen reason confirms, as the shortcut hint says
              if (e.key !== 'Enter') return;
              e.preventDefault();
              e.currentTarget.form?.querySelector<HTMLButtonElement>('button[type="submit"]')?.click();
            }}
            {...control}
          >
            <option value="">Choose a reason…</option>
            {IDV_DECISION_REASONS[decision].map((r) => (
              <option key={r.key} value={r.key}>
                {r.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Note (optional)" error={errors.note}>
        {(control) => (
          <textarea
            className="input"
            rows={2}
            maxLength={1000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            {...control}
          />
        )}
      </Field>
      <div className="form-actions">
        <Button
          type="submit"
          variant={decision === 'declined' ? 'danger' : 'primary'}
          onClick={submit}
          successLabel="Saved"
          disabled={decision === 'approved' && !mrzTyped}
        >
          {DECISION_LABELS[decision]}
        </Button>
      </div>
    </form>
  );
}

/** Who holds the case, and the one action that fits: Assign to me, Release or Take over. */
function Holder({ review, onChange }: { review: IdvReview; onChange: (r: IdvReview) => void }) {
  const api = useApi();
  const id = review.session.id;
  const act = (path: 'assign' | 'release', done: string) => async () => {
    try {
      onChange(await api.post<IdvReview>(`/identity-verification/sessions/${id}/${path}`));
      toast.success(done);
    } catch (err) {
      toast.error('The case did not change hands', errorMessage(err), err);
      throw err;
    }
  };
  const holder = review.assignedTo;
  if (!review.reviewable) return <>{holder?.name ?? '—'}</>;
  if (review.assignedToYou)
    return (
      <span className="idv-holder">
        <span className="badge badge-info">Assigned to you</span>{' '}
        <Button size="sm" onClick={act('release', 'Released to the queue')}>
          Release
        </Button>
      </span>
    );
  return (
    <span className="idv-holder">
      {holder ? <span>Held by {holder.name}</span> : <span className="muted">Not assigned</span>}{' '}
      <Button size="sm" onClick={act('assign', holder ? `Taken over from ${holder.name}` : 'Assigned to you')}>
        {holder ? 'Take over' : 'Assign to me'}
      </Button>
    </span>
  );
}

export function ReviewBody({
  review,
  onChange,
  command,
}: {
  review: IdvReview;
  onChange: (r: IdvReview) => void;
  command?: DecisionCommand | null;
}) {
  const s = review.session;
  const timeline = useQuery(
    `identity-verification:task:${s.id}:${s.status}:${review.session.checks.map((c) => c.status).join()}:${review.assignedTo?.name ?? ''}`,
    (a, signal) => a.get<TaskDetail>(`/identity-verification/tasks/${s.id}`, { signal }),
  );
  return (
    <>
      <TaskFacts
        facts={[
          ['Status', <StatusBadge status={s.status} tones={IDV_STATUS_TONES} />],
          ['Customer', s.customerRef],
          ['Phone', s.phoneNumber],
          ['Document', s.documentType ? (documentTypeOf(s.documentType)?.label ?? s.documentType) : '—'],
          ['Expected name', review.expectedName ?? '—'],
          ['Expected date of birth', review.expectedDateOfBirth ? formatCalendarDay(review.expectedDateOfBirth) : '—'],
          ['Started', formatDateTime(s.createdAt)],
          ['Submitted', s.submittedAt ? formatDateTime(s.submittedAt) : '—'],
          ['Reviewer', <Holder review={review} onChange={onChange} />],
          s.redactedAt ? ['Redacted', formatDateTime(s.redactedAt)] : null,
        ]}
      />

      <h3 className="card-title">Photos</h3>
      <Photos review={review} />

      <h3 className="card-title">Checks</h3>
      <table className="table idv-checks">
        <caption className="sr-only">Checks</caption>
        <thead>
          <tr>
            <th scope="col">Check</th>
            <th scope="col">Result</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {s.checks.length === 0 && (
            <tr>
              <td colSpan={3} className="muted">
                Checks run when the customer sends the photos.
              </td>
            </tr>
          )}
          {s.checks.map((c) => (
            <tr key={c.key}>
              <td>{c.label}</td>
              <td>
                {c.reason === 'not_available' ? (
                  <span className="badge badge-neutral">Not available</span>
                ) : (
                  <span
                    className={`badge ${c.status === 'passed' ? 'badge-success' : c.status === 'failed' ? 'badge-danger' : 'badge-neutral'}`}
                  >
                    {CHECK_STATUS[c.status]}
                  </span>
                )}
              </td>
              <td>{c.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        Face match and liveness are not available: no such service is connected. Compare the selfie with the document photo
        yourself.
      </p>

      <h3 className="card-title">Extracted data</h3>
      {review.dataRedactedAt ? (
        <p className="notice">Extracted data deleted on {formatDateTime(review.dataRedactedAt)} under the retention settings.</p>
      ) : review.extracted ? (
        <TaskFacts
          facts={[
            ...(
              [
                ['Name', `${review.extracted.lastName ?? ''}, ${review.extracted.firstName ?? ''}`],
                ['Document number', review.extracted.documentNumber],
                ['Document code', review.extracted.documentCode],
                ['Issuing state', review.extracted.issuingState],
                ['Nationality', review.extracted.nationality],
                ['Date of birth', review.extracted.dateOfBirth && formatCalendarDay(review.extracted.dateOfBirth)],
                ['Sex', review.extracted.sex],
                ['Expiry date', review.extracted.expiryDate && formatCalendarDay(review.extracted.expiryDate)],
                ['MRZ format', review.extracted.format],
              ] as const
            ).map(([label, value]) => [label, value ?? '—'] as const),
            [
              'MRZ as typed',
              <pre className="idv-mrz" tabIndex={0} role="region" aria-label="MRZ as typed">
                {review.extracted.mrzLines.join('\n')}
              </pre>,
            ],
          ]}
        />
      ) : (
        <p className="muted">Nothing extracted yet.</p>
      )}

      {review.reviewable && (
        <>
          <h3 className="card-title">{review.extracted ? 'Type the MRZ again' : 'Type the MRZ'}</h3>
          <MrzEntry id={s.id} onDone={onChange} />
          <h3 className="card-title">Decide</h3>
          <DecisionForm id={s.id} mrzTyped={!!review.extracted} onDone={onChange} command={command} />
        </>
      )}
      {review.decision && (
        <p className="notice" role="status">
          {DONE_LABELS[review.decision.decision]} by {review.decision.reviewer.name} on {formatDateTime(review.decision.at)}:{' '}
          {review.decision.reasonLabel}
          {review.decision.note ? ` (“${review.decision.note}”)` : ''}
        </p>
      )}

      <h3 className="card-title">Timeline</h3>
      <QueryState query={timeline}>{() => <Timeline events={timeline.data?.events ?? []} />}</QueryState>
    </>
  );
}
