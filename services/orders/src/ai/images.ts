// Where design images come from: the OpenAI images API through the openai SDK when a key is configured,
// else the offline SVG generator. Provider failures become answers the storefront maps (§8): quota and
// billing problems say so (the browser shows "AI service temporarily unavailable"), a refused prompt is
// a 400, anything else a 503.
import OpenAI from 'openai';
import { fileTypeFromBuffer } from 'file-type';
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

const unavailable = (reason: string) =>
  new AppError(503, errorCodes.SERVICE_UNAVAILABLE, `${aiUnavailableMessage.replace(/\.$/, '')}: ${reason}.`);

/** Maps an SDK error to the answer the storefront understands. */
export function mapProviderError(err: unknown, log: Logger): AppError {
  if (err instanceof OpenAI.APIError && err.status !== undefined) {
    const rawCode = (err as { code?: unknown }).code;
    const code = typeof rawCode === 'string' || typeof rawCode === 'number' ? String(rawCode) : '';
    const text = `${code} ${err.message}`;
    log.warn({ status: err.status, code, msg: err.message }, 'image provider refused the request');
    if (err.status === 402 || /quota|billing/i.test(text)) {
      return unavailable('the image service quota or billing limit has been reached');
    }
    if (err.status === 429) return unavailable('the image service is busy');
    if (err.status === 400) {
      return new AppError(
        400,
        errorCodes.BAD_REQUEST,
        'The image service could not use this description. Please describe the design differently.',
      );
    }
    if (err.status === 401 || err.status === 403) {
      log.error({ status: err.status }, 'image provider rejected the API key');
      return unavailable('the image service is not reachable with our current settings');
    }
    return unavailable('the image service had a problem');
  }
  log.warn({ err }, 'image provider could not be reached');
  return unavailable('the image service could not be reached');
}

export function openAiGenerator(config: AiConfig, log: Logger): ImageGenerator {
  const client = new OpenAI({
    apiKey: config.apiKey,
    ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
    maxRetries: 1,
    timeout: 120_000,
  });
  return async ({ prompt, itemType, style }) => {
    let b64: string | undefined;
    try {
      const response = await client.images.generate({
        model: config.imageModel,
        prompt: imagePrompt(prompt, itemType, style),
        n: 1,
        size: '1024x1024',
        // GPT image models always answer base64; DALL-E ones must be asked (their URLs expire).
        ...(config.imageModel.startsWith('dall-e') ? { response_format: 'b64_json' as const } : {}),
      });
      b64 = response.data?.[0]?.b64_json;
    } catch (err) {
      throw mapProviderError(err, log);
    }
    if (!b64) throw unavailable('the image service returned no image');
    const data = Buffer.from(b64, 'base64');
    const type = await fileTypeFromBuffer(data);
    if (!type || !['image/png', 'image/jpeg', 'image/webp'].includes(type.mime)) {
      throw unavailable('the image service returned an unreadable image');
    }
    return { data, contentType: type.mime, extension: type.ext, generator: 'openai', model: config.imageModel };
  };
}

export function imageGeneratorFor(config: AiConfig, log: Logger): ImageGenerator {
  return config.apiKey ? openAiGenerator(config, log) : offlineGenerator;
}
