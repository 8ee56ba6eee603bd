// Design images from the OpenAI images API (images.ts loads this file only when a key is configured).
import OpenAI from 'openai';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, type Logger } from '@shop/service-kit';
import { errorCodes } from '@shop/contracts';
import type { AiConfig } from '../config.js';
import { imagePrompt, unavailable, type ImageGenerator } from './images.js';

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
