// Saving a generated design: fetch the image URL in the browser and save the bytes as a file (§7).
const extensions: Record<string, string> = {
  'image/png': 'png',
  'image/svg+xml': 'svg',
  'image/webp': 'webp',
  'image/jpeg': 'jpg',
};

/** A file name for the design; the spec's jpg unless the server said the image is another type. */
export function designFileName(id: string, contentType: string | null): string {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return `design-${id.replace(/[^a-zA-Z0-9_-]/g, '') || 'ai'}.${extensions[type] ?? 'jpg'}`;
}

export async function downloadDesign(imageUrl: string, id: string): Promise<void> {
  const response = await fetch(imageUrl);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = designFileName(id, response.headers.get('content-type') || blob.type);
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the URL goes away.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
