import { useState } from 'react';
import { Link } from 'wouter';
import { Card } from '../../ui/Card';
import { SALES_EMAIL, SUPPORT_EMAIL } from './contacts';

export default function SupportPage() {
  const [chatAsked, setChatAsked] = useState(false);
  return (
    <div className="page page-narrow">
      <h1 className="page-title">Support</h1>
      <p className="muted page-lead">We're here to help with setup, billing and anything that isn't working as it should.</p>
      <div className="grid-2">
        <Card title="Live Chat">
          <p>Talk to the support team in real time.</p>
          <button type="button" className="btn btn-primary" onClick={() => setChatAsked(true)}>
            Live Chat
          </button>
          {chatAsked && (
            <p className="notice" role="status">
              Live chat isn't connected in this console yet. Please e-mail <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>{' '}
              and we'll get back to you.
            </p>
          )}
        </Card>
        <Card title="Create a ticket">
          <p>Describe the problem and how urgent it is.</p>
          <Link href="/support/ticket" className="btn btn-secondary">
            Create Ticket
          </Link>
        </Card>
      </div>
      <Card title="Contact us">
        <dl className="contact-list">
          <dt>Support</dt>
          <dd>
            <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
          </dd>
          <dt>Sales</dt>
          <dd>
            <a href={`mailto:${SALES_EMAIL}`}>{SALES_EMAIL}</a>
          </dd>
        </dl>
      </Card>
    </div>
  );
}
