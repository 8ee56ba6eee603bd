// Which uploads the shop accepts (storefront §5): JPG, JPEG, PNG, PDF, SVG, AI and EPS, 10 MB each,
// judged by the file's name AND its content, so a program or a text file renamed to .png is refused.
import { fileTypeFromBuffer } from 'file-type';
import { limits, uploadExtensions, uploadRejectedMessage } from '@shop/contracts';

export type UploadExtension = (typeof uploadExtensions)[number];

/** The content type a stored file is served with, by its (checked) extension. */
export const uploadMimeTypes: Record<UploadExtension, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
  svg: 'image/svg+xml',
  ai: 'application/postscript',
  eps: 'application/postscript',
};

export type FileVerdict = { ok: true; extension: UploadExtension; mimetype: string } | { ok: false; message: string };

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

const startsWith = (data: Buffer, text: string) => data.subarray(0, text.length).toString('latin1') === text;
const DOS_EPS = Buffer.from([0xc5, 0xd0, 0xd3, 0xc6]);

/** An SVG is text whose first element (after an XML declaration, comments and a doctype) is <svg>. */
export function looksLikeSvg(data: Buffer): boolean {
  const head = data.subarray(0, 4096);
  if (head.includes(0)) return false;
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  return /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>/]/i.test(
    text,
  );
}

/** PostScript header of an EPS: "%!PS-Adobe-3.0 EPSF-3.0" on the first line. */
function isEpsText(data: Buffer): boolean {
  if (!startsWith(data, '%!PS-Adobe')) return false;
  const firstLine =
    data
      .subarray(0, 128)
      .toString('latin1')
      .split(/\r\n|\r|\n/, 1)[0] ?? '';
  return /EPSF/.test(firstLine);
}

/**
 * Checks one file. `file-type` recognises the binary formats by their magic bytes; SVG, AI and EPS are
 * text (or PDF) formats it does not fully know, so they are checked by their own headers.
 */
export async function checkUpload(originalName: string, data: Buffer): Promise<FileVerdict> {
  const extension = extensionOf(originalName);
  if (!(uploadExtensions as readonly string[]).includes(extension)) {
    return { ok: false, message: `"${originalName}" was rejected. ${uploadRejectedMessage}` };
  }
  const ext = extension as UploadExtension;
  if (data.length === 0) return { ok: false, message: `"${originalName}" is empty.` };
  if (data.length > limits.uploadMaxBytes) return { ok: false, message: tooLargeMessage(originalName) };

  const detected = await fileTypeFromBuffer(data);
  const mismatch = (what: string) => ({
    ok: false as const,
    message: `"${originalName}" is not really a ${what} file${detected ? ` (its content is ${detected.ext.toUpperCase()})` : ''}. ${uploadRejectedMessage}`,
  });
  let ok: boolean;
  switch (ext) {
    case 'jpg':
    case 'jpeg':
      ok = detected?.mime === 'image/jpeg';
      break;
    case 'png':
      ok = detected?.mime === 'image/png';
      break;
    case 'pdf':
      // Illustrator saves PDF-compatible files that file-type names "ai": still a PDF.
      ok = startsWith(data, '%PDF-') && (!detected || detected.ext === 'pdf' || detected.ext === 'ai');
      break;
    case 'svg':
      ok = (!detected || detected.ext === 'xml' || detected.ext === 'svg') && looksLikeSvg(data);
      break;
    case 'ai':
      // Modern .ai files are PDF-compatible; old ones are PostScript.
      ok = startsWith(data, '%PDF-') || startsWith(data, '%!PS-Adobe');
      break;
    case 'eps':
      ok = isEpsText(data) || data.subarray(0, 4).equals(DOS_EPS);
      break;
  }
  if (!ok) return mismatch(ext.toUpperCase());
  return { ok: true, extension: ext, mimetype: uploadMimeTypes[ext] };
}

export const tooLargeMessage = (name: string) => `"${name}" is larger than 10 MB. Each file can be at most 10 MB.`;
