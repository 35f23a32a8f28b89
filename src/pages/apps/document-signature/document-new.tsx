import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import { SIG_MAX_PDF_BYTES, type SigDocument } from '../../../../api/contract/apps/document-signature';
import { TIME_ZONE_HEADER } from '../../../../api/contract/constants';
import { tokenAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Field, TextField } from '../../../ui/Field';
import { useFormErrors } from '../../../ui/form';
import { documentHref } from './documents';

// The PDF goes up as the request body itself (not JSON, not multipart): the API client speaks
// JSON only, so this page, the one place that uploads a PDF, calls fetch with the session token.

export default function NewDocument({ app }: { app: AppDefinition }) {
  const token = useAtomValue(tokenAtom);
  const [, navigate] = useLocation();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const formErrors = useFormErrors();
  const upload = async () => {
    if (!file) throw formErrors.invalid({ file: 'Choose a PDF file.' });
    if (file.size > SIG_MAX_PDF_BYTES) throw formErrors.invalid({ file: 'The PDF is larger than 20 MB.' });
    formErrors.clear();
    const query = name.trim() ? `?name=${encodeURIComponent(name.trim())}` : '';
    const res = await fetch(`/api/${app.id}/documents${query}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/pdf',
        'x-file-name': encodeURIComponent(file.name),
        [TIME_ZONE_HEADER]: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
      body: file,
    });
    const body = (await res.json().catch(() => ({}))) as Partial<SigDocument> & { message?: string };
    // the API's refusals (not a PDF, encrypted, too many pages) are about the file
    if (res.status !== 201) throw formErrors.invalid({ file: body.message ?? 'The upload failed. Please try again.' });
    navigate(documentHref(body as SigDocument));
  };
  return (
    <div className="page page-narrow">
      <h1 className="page-title">Upload a document</h1>
      <Card>
        {/* Enter or the button: the button's click uploads (a submit handler as well would upload twice) */}
        <form onSubmit={(e: FormEvent) => e.preventDefault()} noValidate ref={formErrors.ref}>
          <Field label="PDF file" error={formErrors.errors.file} hint="At most 20 MB. Not encrypted (no password).">
            {(control) => (
              <input
                {...control}
                className="input"
                type="file"
                accept="application/pdf,.pdf"
                onChange={(e) => (setFile(e.target.files?.[0] ?? null), formErrors.clear('file'))}
              />
            )}
          </Field>
          <TextField
            label="Name"
            hint="What agents pick when they send it; the file's name if empty."
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.target.value)}
          />
          <div className="form-actions">
            <Button type="submit" variant="primary" onClick={upload} successLabel="Uploaded">
              Upload
            </Button>
            <Link href="/documents">Cancel</Link>
          </div>
        </form>
      </Card>
    </div>
  );
}
