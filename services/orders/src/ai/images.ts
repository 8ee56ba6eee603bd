// Where design images come from: the OpenAI images API through the openai SDK when a key is configured
// (openai.ts), else the offline SVG generator. Provider failures become answers the storefront maps (§8):
// quota and billing problems say so (the browser shows "AI service temporarily unavailable"), a refused
// prompt is a 400, anything else a 503.
import { aiUnavailableMessage, catalog, errorCodes, type ItemType } from '@shop/contracts';
import { AppError, type Logger } from '@shop/service-kit';
import { drawOfflineDesign } from '../domain/design-svg.js';
import type { AiConfig } from '../config.js';

export interface DesignImage {
  data: Buffer;
  contentType: string;
  extension: string;
  generator: 'openai' | 'offline';
  model?: string;
  warning?: string;
}

export type ImageGenerator = (request: { prompt: string; itemType: ItemType; style: string }) => Promise<DesignImage>;

export const offlineWarning =
  'This design was drawn by the offline design generator (no AI image service is configured): a concept from your description that our designers will refine.';

export const offlineGenerator: ImageGenerator = async ({ prompt, itemType }) => ({
  data: Buffer.from(drawOfflineDesign(prompt, itemType).svg, 'utf8'),
  contentType: 'image/svg+xml',
  extension: 'svg',
  generator: 'offline',
  warning: offlineWarning,
});

/** The prompt sent to the image model: the customer's words inside a product brief. */
export function imagePrompt(prompt: string, itemType: ItemType, style: string): string {
  return [
    `Product artwork concept for ${catalog[itemType].title.toLowerCase()}, ${style} style.`,
    `Customer request: ${prompt}`,
    'Centered on a plain light background, crisp edges, suitable for manufacturing.',
  ].join('\n');
}

export const unavailable = (reason: string) =>
  new AppError(503, errorCodes.SERVICE_UNAVAILABLE, `${aiUnavailableMessage.replace(/\.$/, '')}: ${reason}.`);

/**
 * The image source the configuration asks for. The openai SDK (about 6.6 MiB of heap) is loaded only when
 * a key is configured, as payments loads Stripe's (issue 20: stack memory).
 */
export async function imageGeneratorFor(config: AiConfig, log: Logger): Promise<ImageGenerator> {
  if (!config.apiKey) return offlineGenerator;
  const { openAiGenerator } = await import('./openai.js');
  return openAiGenerator(config, log);
}
