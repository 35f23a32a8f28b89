/** The Data Processing Addendum text, shared by the legal page and the sign-up dialog. */
export default function DpaText() {
  return (
    <div className="prose">
      <p className="muted">Version 1.2 · Effective 1 January 2025</p>
      <p>
        This Data Processing Addendum ("DPA") forms part of the agreement between Switchboard ("Processor") and the customer named
        in the order form ("Controller") for the use of the Switchboard console and its apps (the "Services").
      </p>
      <h2>1. Subject matter and duration</h2>
      <p>
        The Processor processes personal data on behalf of the Controller only to provide the Services, for as long as the
        agreement is in force and for the period needed to return or delete the data afterwards.
      </p>
      <h2>2. Nature and purpose of processing</h2>
      <p>
        Processing covers the verification of the Controller's customers during contact-centre interactions: passkey enrolment and
        authentication, one-time passcodes, document signature, electronic forms, payments and identity verification, together
        with the audit records and logs those activities produce.
      </p>
      <h2>3. Categories of data and data subjects</h2>
      <p>
        Data subjects are the Controller's customers, agents and administrators. Personal data may include names, e-mail
        addresses, telephone numbers, customer references, signatures, form answers and technical identifiers. Card data for
        payments is handled by the payment provider and does not reach the Processor's systems.
      </p>
      <h2>4. Processor obligations</h2>
      <ul>
        <li>Process personal data only on the Controller's documented instructions.</li>
        <li>Ensure that everyone authorised to process the data is bound by confidentiality.</li>
        <li>
          Apply appropriate technical and organisational security measures, including encryption of secrets at rest and in
          transit.
        </li>
        <li>
          Assist the Controller in responding to data subject requests and in meeting its security and notification obligations.
        </li>
        <li>Notify the Controller without undue delay, and within 48 hours, after becoming aware of a personal data breach.</li>
      </ul>
      <h2>5. Sub-processors</h2>
      <p>
        The Controller authorises the sub-processors listed on the Processor's website. The Processor gives at least 30 days'
        notice of any new sub-processor, during which the Controller may object on reasonable grounds.
      </p>
      <h2>6. International transfers</h2>
      <p>
        Where personal data leaves the European Economic Area or the United Kingdom, the parties rely on the applicable standard
        contractual clauses, which are incorporated into this DPA by reference.
      </p>
      <h2>7. Audits</h2>
      <p>
        The Processor makes available the information needed to demonstrate compliance, including its most recent independent
        audit reports, and allows audits by the Controller or its mandated auditor on reasonable notice, no more than once a year.
      </p>
      <h2>8. Return and deletion</h2>
      <p>
        At the end of the Services the Processor deletes or returns all personal data, at the Controller's choice, unless law
        requires it to keep the data, and confirms the deletion in writing on request.
      </p>
      <p className="muted">Questions about this DPA: support@switchboard.example</p>
    </div>
  );
}
