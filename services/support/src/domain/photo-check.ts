// Return photos (storefront §5/§9): images only, up to 10 MB each, judged by their content (magic
// bytes via file-type, like the artwork uploads of the orders service), never by the name the browser sent.
import { fileTypeFromBuffer } from 'file-type';
import { returnRules } from '@shop/contracts';

export type PhotoVerdict = { ok: true; mimetype: string; extension: string } | { ok: false; message: string };

export const photoTypesText = 'JPG, PNG, GIF or WEBP';

export async function checkPhoto(name: string, data: Buffer): Promise<PhotoVerdict> {
  if (data.length === 0) return { ok: false, message: `"${name}" is empty.` };
  if (data.length > returnRules.photoMaxBytes) return { ok: false, message: `"${name}" is larger than 10 MB.` };
  const detected = await fileTypeFromBuffer(data);
  if (!detected || !(returnRules.photoTypes as readonly string[]).includes(detected.mime)) {
    return { ok: false, message: `"${name}" is not a photo. Please attach images only (${photoTypesText}).` };
  }
  return { ok: true, mimetype: detected.mime, extension: detected.ext };
}

/** The name as the customer's computer had it, without folders or control characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  return (
    base
      .replace(/\p{Cc}/gu, '')
      .trim()
      .slice(0, 255) || 'photo'
  );
}
