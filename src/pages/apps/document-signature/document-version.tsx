import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { AppDefinition } from '../../../../api/contract/apps';
import {
  SIG_FIELD_LABELS,
  SIG_REMOVED_CONTENT,
  SIG_SMALL_PAGE_WIDTH,
  type SigField,
  type SigFieldKind,
  type SigVersion,
} from '../../../../api/contract/apps/document-signature';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { formatDateTime } from '../../../ui/format';
import { FieldPalette, type PaletteDrag } from './field-palette';
import { fieldName, PageView, type Ghost } from './field-page';
import { describePosition, dropAt, FIELD_SIZES, newFieldId, nudge, type Box, type Guides } from './field-placement';

// The field editor: the document's pages (drawn by pdf.js, loaded with this page only) with the
// fields on them, and a palette of field kinds beside them (above them on a phone). A field is
// added only where the admin puts it: dragged from the palette and let go on the page, tapped
// onto the page after choosing its kind, or by keyboard: choose the kind, move its outline with
// the arrows, Enter. Positions are fractions of the page, so they hold at any zoom and are the
// units the sealing code stamps with.

/** Where the chosen kind would go: its page and box. */
type Cursor = { page: number; box: Box };

function Editor({ app, version, reload }: { app: AppDefinition; version: SigVersion; reload: () => void }) {
  const api = useApi();
  const [, navigate] = useLocation();
  const readOnly = version.state === 'published';
  const [name, setName] = useState(version.name);
  const [fields, setFields] = useState<SigField[]>(version.fields);
  const [selected, setSelected] = useState<string | null>(null);
  // a kind chosen in the palette, waiting to be placed; where its outline is; a palette drag under way
  const [armed, setArmed] = useState<SigFieldKind | null>(null);
  const [cursor, setCursor] = useState<Cursor | null>(null);
  const [paletteDrag, setPaletteDrag] = useState<(PaletteDrag & { over: Cursor | null }) | null>(null);
  const [guides, setGuides] = useState<{ page: number; guides: Guides } | null>(null);
  const pageBoxes = useRef<(HTMLDivElement | null)[]>([]);
  const root = useRef<HTMLDivElement>(null);

  // The palette sticks under the console's header on a phone; the header's height changes with
  // the width (its tab bar, wrapping), so it is measured rather than assumed.
  useEffect(() => {
    const header = document.querySelector<HTMLElement>('.app-header');
    if (!header || typeof ResizeObserver === 'undefined') return;
    const set = () => root.current?.style.setProperty('--sig-sticky-top', `${header.getBoundingClientRect().height}px`);
    const observer = new ResizeObserver(set);
    observer.observe(header);
    set();
    return () => observer.disconnect();
  }, []);
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

  // focus for the keyboard; a palette folded away on a phone hands it to its summary instead
  const focusLater = (selector: string) =>
    requestAnimationFrame(() => {
      const el = document.querySelector<HTMLElement>(selector);
      if (el?.getClientRects().length) el.focus();
      else document.querySelector<HTMLElement>('.sig-palette > summary')?.focus();
    });
  const change = (f: SigField, g?: Guides | null) => {
    setFields((list) => list.map((x) => (x.id === f.id ? f : x)));
    if (g !== undefined) setGuides(g && (g.x != null || g.y != null) ? { page: f.page, guides: g } : null);
  };
  const moved = (f: SigField) => {
    setStatus(`${fieldName(f)}: ${describePosition(f)}`);
    // a field moved to another page by keyboard keeps the focus
    focusLater(`[data-field-id="${f.id}"]`);
  };
  const remove = (f: SigField) => {
    setFields((list) => list.filter((x) => x.id !== f.id));
    setSelected(null);
    setStatus(`${fieldName(f)} removed`);
    focusLater(`.sig-palette-kind[data-kind="${f.kind}"]`);
  };
  const othersOn = (page: number) => fields.filter((f) => f.page === page);

  /** Adds a field of `kind` in `box` on `page`: the only way a field comes to be, always where the admin put it. */
  const place = (kind: SigFieldKind, page: number, box: Box) => {
    const f: SigField = {
      id: newFieldId(new Set(fields.map((x) => x.id))),
      kind,
      page,
      ...box,
      label: '',
      required: kind !== 'text',
    };
    setFields((list) => [...list, f]);
    setSelected(f.id);
    setArmed(null);
    setCursor(null);
    setGuides(null);
    setStatus(
      `${SIG_FIELD_LABELS[kind]} placed on ${describePosition(f)}. Arrow keys move it, Alt and arrows resize it, Delete removes it.`,
    );
    focusLater(`[data-field-id="${f.id}"]`);
  };

  /** The page under a point of the window, and the point as fractions of it. */
  const pageAt = (clientX: number, clientY: number) => {
    for (const [page, el] of pageBoxes.current.entries()) {
      const r = el?.getBoundingClientRect();
      if (r && clientX >= r.left && clientX <= r.right && clientY >= r.top && clientY <= r.bottom)
        return { page, point: { x: (clientX - r.left) / r.width, y: (clientY - r.top) / r.height } };
    }
    return null;
  };
  const dropCursor = (kind: SigFieldKind, page: number, point: { x: number; y: number }) => {
    const { box, guides: g } = dropAt(point, FIELD_SIZES[kind], othersOn(page));
    setGuides(g.x != null || g.y != null ? { page, guides: g } : null);
    return { page, box };
  };

  /** Choosing a kind: its outline starts in the middle of the part of a page in view, focused for the keyboard. */
  const arm = (kind: SigFieldKind | null) => {
    setArmed(kind);
    setGuides(null);
    if (!kind) {
      setCursor(null);
      setStatus('No field kind chosen');
      return;
    }
    const view = { top: 0, bottom: window.innerHeight };
    let best = { page: 0, seen: -1, point: { x: 0.5, y: 0.5 } };
    for (const [page, el] of pageBoxes.current.entries()) {
      const r = el?.getBoundingClientRect();
      if (!r) continue;
      const top = Math.max(r.top, view.top);
      const bottom = Math.min(r.bottom, view.bottom);
      if (bottom - top > best.seen)
        best = { page, seen: bottom - top, point: { x: 0.5, y: bottom > top ? ((top + bottom) / 2 - r.top) / r.height : 0.5 } };
    }
    const next = dropCursor(kind, best.page, best.point);
    setGuides(null);
    setCursor(next);
    setStatus(
      `${SIG_FIELD_LABELS[kind]} chosen: ${describePosition({ page: next.page, ...next.box })}. Tap or click the page where it goes, or move it with the arrow keys and press Enter. Escape cancels.`,
    );
    focusLater('.sig-ghost[tabindex]');
  };
  const ghostKey = (e: KeyboardEvent) => {
    if (!armed || !cursor) return;
    const box = nudge(cursor.box, e.key, { shift: e.shiftKey });
    let next: Cursor | null = box ? { ...cursor, box } : null;
    if (!next && ((e.key === 'PageDown' && cursor.page < version.pageCount - 1) || (e.key === 'PageUp' && cursor.page > 0)))
      next = { ...cursor, page: cursor.page + (e.key === 'PageDown' ? 1 : -1) };
    if (next) {
      e.preventDefault();
      setCursor(next);
      setStatus(`${SIG_FIELD_LABELS[armed]}: ${describePosition({ page: next.page, ...next.box })}`);
      if (next.page !== cursor.page) focusLater('.sig-ghost[tabindex]');
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      place(armed, cursor.page, cursor.box);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      const kind = armed;
      arm(null);
      setStatus(`${SIG_FIELD_LABELS[kind]} not placed`);
      focusLater(`.sig-palette-kind[data-kind="${kind}"]`);
    }
  };
  /** The pointer over a page while a kind is chosen: the outline follows it; a tap or click places it there. */
  const point = (page: number, p: { x: number; y: number }, commit: boolean) => {
    if (!armed || readOnly) return;
    const next = dropCursor(armed, page, p);
    if (commit) place(armed, next.page, next.box);
    else setCursor(next);
  };
  const paletteMove = (d: PaletteDrag | null) => {
    if (!d) {
      setPaletteDrag(null);
      setGuides(null);
      return;
    }
    const at = pageAt(d.clientX, d.clientY);
    setPaletteDrag({ ...d, over: at ? dropCursor(d.kind, at.page, at.point) : null });
    if (!at) setGuides(null);
  };
  const paletteDrop = (d: PaletteDrag) => {
    setPaletteDrag(null);
    const at = pageAt(d.clientX, d.clientY);
    if (!at) {
      setGuides(null);
      setStatus(`${SIG_FIELD_LABELS[d.kind]} not placed: let go of it over a page`);
      return;
    }
    const next = dropCursor(d.kind, at.page, at.point);
    place(d.kind, next.page, next.box);
  };
  const ghostOn = (page: number): Ghost | null => {
    if (paletteDrag)
      return paletteDrag.over?.page === page ? { kind: paletteDrag.kind, box: paletteDrag.over.box, focusable: false } : null;
    return armed && cursor?.page === page ? { kind: armed, box: cursor.box, focusable: true } : null;
  };
  const current = fields.find((f) => f.id === selected) ?? null;

  const save = async () => {
    try {
      const saved = await api.put<SigVersion>(`/${app.id}/documents/${version.documentId}/draft`, { name, fields });
      toast.success('Draft saved');
      return saved;
    } catch (err) {
      toast.error('The draft could not be saved', errorMessage(err), err);
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
      const published = await api.create<SigVersion>(`/${app.id}/documents/${version.documentId}/publish`, {
        pageImages,
        pageImagesSmall,
      });
      toast.success(`Version ${published.version} published`);
      // the same address shows the version, now published: read it again
      reload();
    } catch (err) {
      toast.error('The document could not be published', errorMessage(err), err);
      throw err;
    }
  };
  const editAsDraft = async () => {
    const draft = await save();
    navigate(`/documents/${version.documentId}/${draft.version}`);
  };

  return (
    <div className="page sig-editor" ref={root}>
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
          : 'Place the fields the signer fills in: drag one from Fields onto the page where it goes. A placed field moves by dragging and resizes by its corner, snapping to the grid and to other fields; with the keyboard, arrows move it (Shift: further), Alt + arrows resize it and Delete removes it.'}
      </p>
      {version.removedContent.length > 0 && (
        <p className="notice notice-warning">
          Taken out of the uploaded file before it was stored:{' '}
          {version.removedContent.map((r) => SIG_REMOVED_CONTENT[r]).join(', ')}. Signers see the pages as they are; links within
          the document still work.
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
              pageCount={version.pageCount}
              size={size}
              fields={fields.filter((f) => f.page === i)}
              selected={selected}
              readOnly={readOnly}
              ghost={readOnly ? null : ghostOn(i)}
              guides={guides?.page === i ? guides.guides : null}
              boxRef={(el) => (pageBoxes.current[i] = el)}
              onSelect={setSelected}
              onChange={change}
              onMoved={moved}
              onRemove={remove}
              onPoint={point}
              onGhostKey={ghostKey}
            />
          ))}
        </div>
        <aside className="sig-editor-side">
          {!readOnly && <FieldPalette armed={armed} onArm={arm} onDrag={paletteMove} onDrop={paletteDrop} />}
          <Card title="Document">
            <TextField label="Name" value={name} maxLength={200} disabled={readOnly} onChange={(e) => setName(e.target.value)} />
            <p className="muted">
              {version.pageCount} pages · {fields.length} fields · {version.fileName}
            </p>
          </Card>
          {current && (
            <Card title="Selected field">
              {/* no label of the sender's: signers read the kind's name in their own language */}
              <TextField
                label="Label"
                value={current.label}
                maxLength={100}
                disabled={readOnly}
                placeholder={SIG_FIELD_LABELS[current.kind]}
                hint={
                  current.label.trim()
                    ? undefined
                    : `Left empty, signers read "${SIG_FIELD_LABELS[current.kind]}" in their own language.`
                }
                onChange={(e) => change({ ...current, label: e.target.value })}
              />
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={current.required}
                  disabled={readOnly}
                  onChange={(e) => change({ ...current, required: e.target.checked })}
                />{' '}
                Required
              </label>
              <p className="muted">
                {SIG_FIELD_LABELS[current.kind]} on {describePosition(current)}
              </p>
              {!readOnly && (
                <Button variant="danger" onClick={() => remove(current)}>
                  Remove field
                </Button>
              )}
            </Card>
          )}
        </aside>
      </div>
      {paletteDrag && !paletteDrag.over && (
        // the kind under the finger or pointer until it is over a page
        <span className="sig-drag-chip" aria-hidden="true" style={{ left: paletteDrag.clientX, top: paletteDrag.clientY }}>
          {SIG_FIELD_LABELS[paletteDrag.kind]}
        </span>
      )}
    </div>
  );
}

export default function DocumentVersion({ app }: { app: AppDefinition }) {
  const { id, version } = useParams<{ id: string; version: string }>();
  const query = useQuery(`${app.id}:version:${id}:${version}`, (a, signal) =>
    a.get<SigVersion>(`/${app.id}/documents/${encodeURIComponent(id)}/versions/${encodeURIComponent(version)}`, { signal }),
  );
  return (
    <QueryState query={query}>
      {() =>
        query.data && (
          <Editor
            key={`${query.data.documentId}:${query.data.version}:${query.data.state}`}
            app={app}
            version={query.data}
            reload={query.reload}
          />
        )
      }
    </QueryState>
  );
}
