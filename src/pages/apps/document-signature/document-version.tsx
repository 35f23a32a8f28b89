import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { AppDefinition } from '../../../../api/contract/apps';
import { SIG_FIELD_KINDS, SIG_FIELD_LABELS, SIG_REMOVED_CONTENT, SIG_SMALL_PAGE_WIDTH, type SigField, type SigFieldKind, type SigVersion } from '../../../../api/contract/apps/document-signature';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { formatDateTime } from '../../../ui/format';

// The field editor: the document's pages (drawn by pdf.js, loaded with this page only) with the
// fields on them. A field moves by dragging or with the arrow keys, and resizes by its corner or
// with Alt + arrows; positions are fractions of the page, so they hold at any zoom.

const SIZES: Record<SigFieldKind, { w: number; h: number }> = {
  signature: { w: 0.3, h: 0.06 },
  initials: { w: 0.1, h: 0.05 },
  fullName: { w: 0.3, h: 0.035 },
  dateSigned: { w: 0.2, h: 0.035 },
  text: { w: 0.3, h: 0.035 },
  checkbox: { w: 0.03, h: 0.025 },
};
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));
const round = (n: number) => Math.round(n * 10_000) / 10_000;
const newId = () => Math.random().toString(36).slice(2, 10).replace(/[^a-z0-9]/g, '') || 'f1';

function place(f: SigField, change: Partial<SigField>): SigField {
  const next = { ...f, ...change };
  next.w = round(clamp(next.w, 0.01, 1));
  next.h = round(clamp(next.h, 0.005, 1));
  next.x = round(clamp(next.x, 0, 1 - next.w));
  next.y = round(clamp(next.y, 0, 1 - next.h));
  return next;
}

type Drag = { id: string; mode: 'move' | 'resize'; startX: number; startY: number; start: SigField; rect: DOMRect };

function PageView(props: {
  pdf: PDFDocumentProxy | null;
  index: number;
  size: { width: number; height: number };
  fields: SigField[];
  selected: string | null;
  readOnly: boolean;
  onSelect: (id: string) => void;
  onChange: (f: SigField) => void;
  onRemove: (id: string) => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const [rendered, setRendered] = useState(false);
  useEffect(() => {
    if (!props.pdf || !canvas.current || !box.current) return;
    let cancelled = false;
    import('./pdf-render')
      .then(({ renderPage }) => renderPage(props.pdf!, props.index, canvas.current!, box.current!.clientWidth))
      .then(() => !cancelled && setRendered(true))
      .catch(() => !cancelled && setRendered(false));
    return () => {
      cancelled = true;
    };
  }, [props.pdf, props.index]);

  const begin = (e: ReactPointerEvent, f: SigField, mode: Drag['mode']) => {
    if (props.readOnly) return;
    e.preventDefault();
    e.stopPropagation();
    props.onSelect(f.id);
    drag.current = { id: f.id, mode, startX: e.clientX, startY: e.clientY, start: f, rect: box.current!.getBoundingClientRect() };
    (e.target as HTMLElement).setPointerCapture(e.pointerId);
  };
  const move = (e: ReactPointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const dx = (e.clientX - d.startX) / d.rect.width;
    const dy = (e.clientY - d.startY) / d.rect.height;
    props.onChange(d.mode === 'move' ? place(d.start, { x: d.start.x + dx, y: d.start.y + dy }) : place(d.start, { w: d.start.w + dx, h: d.start.h + dy }));
  };
  const end = () => {
    drag.current = null;
  };
  const keys = (e: KeyboardEvent, f: SigField) => {
    if (props.readOnly) return;
    const step = e.shiftKey ? 0.05 : 0.005;
    const delta = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
    if (delta) {
      e.preventDefault();
      props.onChange(e.altKey ? place(f, { w: f.w + delta[0]!, h: f.h + delta[1]! }) : place(f, { x: f.x + delta[0]!, y: f.y + delta[1]! }));
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      props.onRemove(f.id);
    }
  };
  return (
    <figure className="sig-editor-figure">
      <div ref={box} className="sig-editor-page" style={{ aspectRatio: `${props.size.width} / ${props.size.height}` }}>
        <canvas ref={canvas} className="sig-editor-canvas" aria-hidden="true" />
        {!rendered && <span className="sig-editor-loading">Page {props.index + 1}</span>}
        {props.fields.map((f) => (
          <div
            key={f.id}
            role="button"
            tabIndex={0}
            aria-pressed={props.selected === f.id}
            aria-label={`${f.label || SIG_FIELD_LABELS[f.kind]} (${SIG_FIELD_LABELS[f.kind]}${f.required ? ', required' : ''}), page ${f.page + 1}${props.readOnly ? '' : '. Arrow keys move it, Alt and arrows resize it, Delete removes it.'}`}
            className={`sig-field sig-field-${f.kind}${props.selected === f.id ? ' is-selected' : ''}`}
            style={{ left: `${f.x * 100}%`, top: `${f.y * 100}%`, width: `${f.w * 100}%`, height: `${f.h * 100}%` }}
            onPointerDown={(e) => begin(e, f, 'move')}
            onPointerMove={move}
            onPointerUp={end}
            onFocus={() => props.onSelect(f.id)}
            onKeyDown={(e) => keys(e, f)}
            data-field-id={f.id}
          >
            <span className="sig-field-label">{f.label || SIG_FIELD_LABELS[f.kind]}</span>
            {!props.readOnly && <span className="sig-field-resize" aria-hidden="true" onPointerDown={(e) => begin(e, f, 'resize')} onPointerMove={move} onPointerUp={end} />}
          </div>
        ))}
      </div>
      <figcaption className="muted">
        Page {props.index + 1}
      </figcaption>
    </figure>
  );
}

function Editor({ app, version, reload }: { app: AppDefinition; version: SigVersion; reload: () => void }) {
  const api = useApi();
  const [, navigate] = useLocation();
  const readOnly = version.state === 'published';
  const [name, setName] = useState(version.name);
  const [fields, setFields] = useState<SigField[]>(version.fields);
  const [selected, setSelected] = useState<string | null>(null);
  const [kind, setKind] = useState<SigFieldKind>('signature');
  const [page, setPage] = useState(0);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [pdfError, setPdfError] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  useEffect(() => {
    let doc: PDFDocumentProxy | null = null;
    import('./pdf-render')
      .then(({ openPdf }) => openPdf(version.fileUrl))
      .then((d) => {
        doc = d;
        setPdf(d);
      })
      .catch((err) => setPdfError(errorMessage(err, 'The PDF could not be shown')));
    return () => void doc?.destroy();
  }, [version.fileUrl]);

  const change = (f: SigField) => setFields((list) => list.map((x) => (x.id === f.id ? f : x)));
  const remove = (id: string) => {
    setFields((list) => list.filter((x) => x.id !== id));
    setSelected(null);
    setStatus('Field removed');
  };
  const add = () => {
    const size = SIZES[kind];
    const f = place({ id: newId(), kind, page, x: 0.1, y: 0.1 + ((fields.filter((x) => x.page === page).length * 0.07) % 0.8), ...size, label: SIG_FIELD_LABELS[kind], required: kind !== 'text' }, {});
    setFields((list) => [...list, f]);
    setSelected(f.id);
    setStatus(`${SIG_FIELD_LABELS[kind]} field added on page ${page + 1}`);
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-field-id="${f.id}"]`)?.focus());
  };
  const current = fields.find((f) => f.id === selected) ?? null;

  const save = async () => {
    try {
      const saved = await api.put<SigVersion>(`/${app.id}/documents/${version.documentId}/draft`, { name, fields });
      toast.success('Draft saved');
      return saved;
    } catch (err) {
      toast.error('The draft could not be saved', errorMessage(err));
      throw err;
    }
  };
  const publish = async () => {
    await save();
    try {
      let pageImages: string[] | undefined;
      let pageImagesSmall: string[] | undefined;
      if (pdf) {
        const { pageJpeg } = await import('./pdf-render');
        pageImages = [];
        pageImagesSmall = [];
        // two widths: the signer's phone takes the one its screen needs (srcset)
        for (let i = 0; i < version.pageCount; i++) {
          pageImages.push(await pageJpeg(pdf, i));
          pageImagesSmall.push(await pageJpeg(pdf, i, SIG_SMALL_PAGE_WIDTH));
        }
      }
      const published = await api.create<SigVersion>(`/${app.id}/documents/${version.documentId}/publish`, { pageImages, pageImagesSmall });
      toast.success(`Version ${published.version} published`);
      // the same address shows the version, now published: read it again
      reload();
    } catch (err) {
      toast.error('The document could not be published', errorMessage(err));
      throw err;
    }
  };
  const editAsDraft = async () => {
    const draft = await save();
    navigate(`/documents/${version.documentId}/${draft.version}`);
  };

  return (
    <div className="page sig-editor">
      <div className="page-header">
        <h1 className="page-title">
          {version.name}: version {version.version} {readOnly ? '(published)' : '(draft)'}
        </h1>
        <div className="sig-editor-actions">
          <Link href={`/documents/${version.documentId}/history`}>History</Link>
          {readOnly ? (
            <Button variant="primary" onClick={editAsDraft} successLabel="Draft opened">
              Edit as a new draft
            </Button>
          ) : (
            <>
              <Button onClick={save} successLabel="Saved">
                Save draft
              </Button>
              <Button variant="primary" onClick={publish} successLabel="Published">
                Publish
              </Button>
            </>
          )}
        </div>
      </div>
      <p className="page-lead">
        {readOnly
          ? `Published ${version.publishedAt ? formatDateTime(version.publishedAt) : ''} by ${version.publishedBy ?? ''}. A published version never changes: requests record it.`
          : 'Place the fields the signer fills in. Drag a field to move it and its corner to resize it; with the keyboard, arrows move it (Shift: further) and Alt + arrows resize it.'}
      </p>
      {version.removedContent.length > 0 && (
        <p className="notice notice-warning">
          Taken out of the uploaded file before it was stored: {version.removedContent.map((r) => SIG_REMOVED_CONTENT[r]).join(', ')}. Signers see the pages as they are; links
          within the document still work.
        </p>
      )}
      <p className="sr-only" role="status" aria-live="polite">
        {status}
      </p>
      <div className="sig-editor-layout">
        <div className="sig-editor-pages">
          {pdfError && <p className="notice notice-error">{pdfError}</p>}
          {version.pages.map((size, i) => (
            <PageView
              key={i}
              pdf={pdf}
              index={i}
              size={size}
              fields={fields.filter((f) => f.page === i)}
              selected={selected}
              readOnly={readOnly}
              onSelect={setSelected}
              onChange={change}
              onRemove={remove}
            />
          ))}
        </div>
        <aside className="sig-editor-side">
          <Card title="Document">
            <TextField label="Name" value={name} maxLength={200} disabled={readOnly} onChange={(e) => setName(e.target.value)} />
            <p className="muted">
              {version.pageCount} pages · {fields.length} fields · {version.fileName}
            </p>
          </Card>
          {!readOnly && (
            <Card title="Add a field">
              <Field label="Kind">
                {(control) => (
                  <select className="input" {...control} value={kind} onChange={(e) => setKind(e.target.value as SigFieldKind)}>
                    {SIG_FIELD_KINDS.map((k) => (
                      <option key={k} value={k}>
                        {SIG_FIELD_LABELS[k]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Page">
                {(control) => (
                  <select className="input" {...control} value={page} onChange={(e) => setPage(Number(e.target.value))}>
                    {version.pages.map((_, i) => (
                      <option key={i} value={i}>
                        Page {i + 1}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Button onClick={add}>Add field</Button>
            </Card>
          )}
          {current && (
            <Card title="Selected field">
              <TextField label="Label" value={current.label} maxLength={100} disabled={readOnly} onChange={(e) => change({ ...current, label: e.target.value })} />
              <label className="checkbox">
                <input type="checkbox" checked={current.required} disabled={readOnly} onChange={(e) => change({ ...current, required: e.target.checked })} /> Required
              </label>
              <p className="muted">
                {SIG_FIELD_LABELS[current.kind]} on page {current.page + 1}, at {Math.round(current.x * 100)}% × {Math.round(current.y * 100)}%, {Math.round(current.w * 100)}% wide
              </p>
              {!readOnly && (
                <Button variant="danger" onClick={() => remove(current.id)}>
                  Remove field
                </Button>
              )}
            </Card>
          )}
        </aside>
      </div>
    </div>
  );
}

export default function DocumentVersion({ app }: { app: AppDefinition }) {
  const { id, version } = useParams<{ id: string; version: string }>();
  const query = useQuery(`${app.id}:version:${id}:${version}`, (a, signal) => a.get<SigVersion>(`/${app.id}/documents/${encodeURIComponent(id)}/versions/${encodeURIComponent(version)}`, { signal }));
  return <QueryState query={query}>{() => query.data && <Editor key={`${query.data.documentId}:${query.data.version}:${query.data.state}`} app={app} version={query.data} reload={query.reload} />}</QueryState>;
}
