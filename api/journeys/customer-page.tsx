/** @jsxImportSource hono/jsx */
import type { Context } from 'hono';
import type { Deps } from '../deps';
import {
  customerPageOf,
  registerCustomerPage,
  registerCustomerPageAction,
  type Branding,
  type PageAnswer,
  type PageLink,
} from '../customer-pages/frame';
import { resolveLink } from '../customer-pages/links';
import { checkPasscode } from '../apps/one-time-passcode/service';
import { requestOrigin } from '../apps/platform/request';
import type { Caller } from '../apps/platform/caller';
import { ApiError } from '../http/errors';
import { pageState, advanceJourney, skipStep, WALK_PURPOSE } from './service';
import { stepTaskStatus } from './steps';

// The journey's one link, /c/<token>: it shows the current step and nothing else ("Step 2 of 4"),
// each step being its app's own page, opened with the step's own link (never sent anywhere: the
// caller only ever holds the journey's). A step's form posts back to this same address, and is
// handed to its app's own post-back. A passcode step is the one page of the journey's own: One-Time
// Passcode has no page, so the code the journey's SMS carried is typed here and checked by its
// service. A later step does not exist (no task, no link, no page) until the one before is done.

const CSS = `.jr-step{margin:0 0 4px;font-size:.9rem;color:#374151}.jr-skip{margin-top:16px}
.jr-skip button{background:#fff;color:#1F2937;border:1px solid #6B7280}
.jr-code label{display:block;font-weight:600;margin-bottom:4px}
.jr-code input{font:inherit;font-size:1.25rem;letter-spacing:.2em;width:100%;min-height:44px;padding:0 12px;border:1px solid #6B7280;border-radius:6px;margin-bottom:12px}
.jr-code input:focus,.jr-skip button:focus{outline:3px solid #2563EB;outline-offset:2px}
.jr-error{color:#B91C1C;font-weight:600}`;

/** an identity step's statuses while its photos wait for a reviewer */
const IN_REVIEW = new Set(['submitted', 'needs_review']);

const getDeps = (c: Context) => c.get('deps' as never) as Deps;

function customerCaller(c: Context): Caller {
  const origin = requestOrigin(c as never);
  return {
    kind: 'api',
    actor: { id: null, firstName: 'Customer', lastName: '' },
    label: 'Customer',
    ip: origin.ip,
    userAgent: origin.userAgent,
  };
}

function ended(status: string, link: PageLink, branding: Branding): PageAnswer {
  const company = branding.name;
  if (status === 'completed')
    return { title: link.t('journey.done.title'), body: <p>{link.t('journey.done.text', { company })}</p> };
  if (status === 'paused')
    return { title: link.t('journey.paused.title'), body: <p>{link.t('journey.paused.text', { company })}</p> };
  if (status === 'active') {
    // the next step is being sent by another request this very moment
    return {
      title: link.t('journey.wait.title'),
      body: (
        <>
          <p role="status">{link.t('journey.wait.text')}</p>
          <p>
            <a href="">{link.t('journey.wait.refresh')}</a>
          </p>
        </>
      ),
    };
  }
  return { title: link.t('journey.ended.title'), body: <p>{link.t('journey.ended.text', { company })}</p>, status: 410 };
}

function CodeForm({ link, branding, wrong }: { link: PageLink; branding: Branding; wrong: boolean }) {
  return (
    <form method="post" class="jr-code">
      <p>{link.t('journey.code.text', { company: branding.name })}</p>
      <label for="jr-code">{link.t('journey.code.label')}</label>
      <input
        id="jr-code"
        name="code"
        inputmode="numeric"
        autocomplete="one-time-code"
        pattern="[0-9]*"
        maxlength={10}
        required
        aria-invalid={wrong ? 'true' : undefined}
        aria-describedby={wrong ? 'jr-code-error' : undefined}
      />
      {wrong ? (
        <p id="jr-code-error" class="jr-error" role="alert">
          {link.t('journey.code.wrong')}
        </p>
      ) : null}
      <button type="submit">{link.t('journey.code.button')}</button>
    </form>
  );
}

/**
 * The current step's page inside the journey's frame; `run` is the step's own GET or POST handler
 * (a passcode step is the journey's code form). Nothing of a step shows unless the journey is
 * active at that step.
 */
async function stepPage(
  c: Context,
  link: PageLink,
  branding: Branding,
  deps: Deps,
  post: boolean,
  wrongCode = false,
): Promise<PageAnswer> {
  const { journey, step } = await pageState(deps, link.accountId, link.taskId!);
  if (!step) return ended(journey.status, link, branding);
  const total = journey.steps.length;
  const header = <p class="jr-step">{link.t('journey.step', { n: step.position + 1, total })}</p>;
  const skip = step.optional ? (
    <form method="post" action={`?skip=${step.position}`} class="jr-skip">
      <button type="submit">{link.t('journey.skip')}</button>
    </form>
  ) : null;
  let page: PageAnswer;
  if (step.app === 'one-time-passcode') {
    page = {
      title: link.t('journey.code.title'),
      body: <CodeForm link={link} branding={branding} wrong={wrongCode} />,
      status: wrongCode ? 400 : 200,
    };
  } else {
    const stepLink = step.token ? await resolveLink(deps.db, step.token, deps.now()) : null;
    const handlers = stepLink ? customerPageOf(stepLink.purpose) : {};
    const run = post ? handlers.action : handlers.page;
    if (!stepLink || !run) return ended(journey.status, link, branding);
    // the step's own page, in the journey's language, answered as if its own link had been opened
    page = await run(c, { ...stepLink, token: step.token!, pageLocale: link.pageLocale, t: link.t }, branding, deps);
  }
  // a passkey's ceremony ends on its own page: its script follows this link once it succeeded, and
  // the caller can. Photos sent for an identity check wait for a reviewer: the next step opens here
  // once they are approved (IDV's forms came back to this link, as the session keeps it).
  const onward = (
    <p class="jr-next">
      <a href="" data-journey-next>
        {link.t('journey.code.button')}
      </a>
    </p>
  );
  let next = null;
  if (step.app === 'passkeys') next = onward;
  else if (
    step.app === 'identity-verification' &&
    IN_REVIEW.has((await stepTaskStatus(deps, link.accountId, step.app, step.taskId)).status)
  ) {
    next = (
      <>
        <p>{link.t('journey.review.text')}</p>
        {onward}
      </>
    );
  }
  return {
    ...page,
    css: `${CSS}${page.css ?? ''}`,
    body: (
      <>
        {header}
        {page.body}
        {next}
        {skip}
      </>
    ),
  };
}

registerCustomerPage(WALK_PURPOSE, (c, link, branding, deps) => stepPage(c, link, branding, deps, false));

registerCustomerPageAction(
  WALK_PURPOSE,
  async (c, link, branding) => {
    const deps = getDeps(c);
    const journeyId = link.taskId!;
    const skip = c.req.query('skip');
    if (
      skip !== undefined &&
      /^\d+$/.test(skip) &&
      (await skipStep(deps, link.accountId, journeyId, Number(skip), customerCaller(c)))
    ) {
      return stepPage(c, link, branding, deps, false);
    }
    const { step } = await pageState(deps, link.accountId, journeyId);
    if (step?.app === 'one-time-passcode') {
      const form = await c.req.parseBody();
      const code = typeof form.code === 'string' ? form.code.trim() : '';
      if (!/^\d{1,10}$/.test(code)) return stepPage(c, link, branding, deps, false, true);
      let status: string;
      try {
        status = (await checkPasscode(deps, link.accountId, step.taskId, code, customerCaller(c))).status;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        status = 'failed';
      }
      await advanceJourney(deps, link.accountId, journeyId);
      return stepPage(c, link, branding, deps, false, status === 'pending');
    }
    // the step's own post-back; when it finished the step, the page goes straight on to the next
    const answered = await stepPage(c, link, branding, deps, true);
    const after = await pageState(deps, link.accountId, journeyId);
    if (after.step?.position !== step?.position || after.journey.status !== 'active')
      return stepPage(c, link, branding, deps, false);
    return answered;
  },
  // as large as the largest step's own post-back (a form with files): the frame takes the largest
  1024 * 1024,
);
