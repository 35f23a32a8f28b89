import { PDFArray, PDFDict, PDFName, PDFRef, PDFStream, type PDFContext, type PDFObject } from 'pdf-lib';
import type { SigRemovedContent } from '../../contract/apps/document-signature';

// Active content out of an uploaded PDF, before it is stored, shown to a signer or sealed. A
// reader runs what a PDF asks for: JavaScript, a program to launch, a web address to open, a form
// to submit, an attached file to save. A document for signature needs none of it, and a signed
// record must not change what it shows or does after signing, so the rule is a whitelist: the only
// actions kept are GoTo (a place in this document) and the four page-turning named actions;
// everything that carries an attached file or scripted media goes with them. Then
// every object no longer reachable from the trailer is dropped, so what was cut out (an embedded
// file's stream, a script's text) is not in the stored file at all.

const name = (s: string) => PDFName.of(s);

/** Keys removed wherever they appear, and what each one is. */
const DROPPED_KEYS = new Map<PDFName, SigRemovedContent>([
  [name('OpenAction'), 'open-action'],
  [name('AA'), 'event-actions'],
  [name('JS'), 'javascript'],
  // the document's name tree of scripts (in /Names)
  [name('JavaScript'), 'javascript'],
  [name('EmbeddedFiles'), 'embedded-files'],
  // a file specification's embedded stream, and PDF 2.0's associated files
  [name('EF'), 'embedded-files'],
  [name('RF'), 'embedded-files'],
  [name('AF'), 'embedded-files'],
  [name('XFA'), 'xfa'],
]);

/** Annotations removed from every page, and what each one is. */
const DROPPED_ANNOTATIONS = new Map<PDFName, SigRemovedContent>([
  [name('FileAttachment'), 'embedded-files'],
  [name('Sound'), 'media'],
  [name('Movie'), 'media'],
  [name('Screen'), 'media'],
  [name('RichMedia'), 'media'],
  [name('3D'), 'media'],
]);

const ACTION_KIND = new Map<PDFName, SigRemovedContent>([
  [name('JavaScript'), 'javascript'],
  [name('Launch'), 'launch'],
  [name('URI'), 'links'],
  [name('Rendition'), 'media'],
  [name('Movie'), 'media'],
  [name('Sound'), 'media'],
  [name('RichMediaExecute'), 'media'],
  [name('GoTo3DView'), 'media'],
]);

const PAGE_TURNS = new Set(['NextPage', 'PrevPage', 'FirstPage', 'LastPage'].map(name));

const S = name('S');
const N = name('N');
const A = name('A');
const NEXT = name('Next');
const ANNOTS = name('Annots');
const SUBTYPE = name('Subtype');
const GOTO = name('GoTo');
const NAMED = name('Named');

/**
 * Cleans the document in place and returns what it removed (empty when nothing was there).
 * Walks every object once (cycles are fine), then drops what the trailer no longer reaches.
 */
export function stripActiveContent(context: PDFContext): SigRemovedContent[] {
  const removed = new Set<SigRemovedContent>();
  const seen = new Set<PDFObject>();
  const resolve = (o: PDFObject | undefined) => (o instanceof PDFRef ? context.lookup(o) : o);

  /** null when the action may stay, else what it is */
  const refusedAction = (value: PDFObject | undefined): SigRemovedContent | null => {
    const action = resolve(value);
    if (action instanceof PDFArray) {
      for (let i = 0; i < action.size(); i++) {
        const kind = refusedAction(action.get(i));
        if (kind) return kind;
      }
      return null;
    }
    // an action is a dictionary with /S (its type); an outline item's /Next or a structure
    // element's /A attributes are other things under the same keys, and stay
    if (!(action instanceof PDFDict)) return null;
    const s = resolve(action.get(S));
    if (!s) return null;
    if (s === GOTO) return null;
    if (s === NAMED && PAGE_TURNS.has(resolve(action.get(N)) as PDFName)) return null;
    return (s instanceof PDFName && ACTION_KIND.get(s)) || 'other-actions';
  };

  const cleanArray = (array: PDFArray) => {
    for (let i = 0; i < array.size(); i++) clean(array.get(i));
  };

  const cleanDict = (dict: PDFDict) => {
    for (const [key, value] of dict.entries()) {
      const dropped = DROPPED_KEYS.get(key);
      if (dropped) {
        dict.delete(key);
        removed.add(dropped);
        continue;
      }
      if (key === A || key === NEXT) {
        const kind = refusedAction(value);
        if (kind) {
          dict.delete(key);
          removed.add(kind);
          continue;
        }
      }
      if (key === ANNOTS) {
        const annots = resolve(value);
        if (annots instanceof PDFArray) {
          for (let i = annots.size() - 1; i >= 0; i--) {
            const annot = resolve(annots.get(i));
            const kind = annot instanceof PDFDict ? DROPPED_ANNOTATIONS.get(annot.get(SUBTYPE) as PDFName) : undefined;
            if (kind) {
              annots.remove(i);
              removed.add(kind);
            }
          }
        }
      }
      clean(value);
    }
  };

  // direct objects nested in an indirect one; references are reached by the loop below
  const clean = (o: PDFObject | undefined) => {
    if (!o || o instanceof PDFRef || seen.has(o)) return;
    seen.add(o);
    if (o instanceof PDFDict) cleanDict(o);
    else if (o instanceof PDFStream) cleanDict(o.dict);
    else if (o instanceof PDFArray) cleanArray(o);
  };

  for (const [, object] of context.enumerateIndirectObjects()) clean(object);
  dropUnreachable(context);
  return [...removed];
}

/** Deletes every indirect object the trailer (its /Root and /Info) does not lead to. */
export function dropUnreachable(context: PDFContext): number {
  const reached = new Set<string>();
  const stack: PDFObject[] = [];
  const { Root, Info } = context.trailerInfo;
  for (const start of [Root, Info]) if (start) stack.push(start);
  while (stack.length) {
    const o = stack.pop()!;
    if (o instanceof PDFRef) {
      if (reached.has(o.tag)) continue;
      reached.add(o.tag);
      const target = context.lookup(o);
      if (target) stack.push(target);
    } else if (o instanceof PDFDict) {
      for (const v of o.values()) stack.push(v);
    } else if (o instanceof PDFStream) {
      for (const v of o.dict.values()) stack.push(v);
    } else if (o instanceof PDFArray) {
      for (let i = 0; i < o.size(); i++) stack.push(o.get(i));
    }
  }
  let dropped = 0;
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!reached.has(ref.tag)) {
      context.delete(ref);
      dropped++;
    }
  }
  return dropped;
}
