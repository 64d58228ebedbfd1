import { fileTypeFromBuffer } from 'file-type';
import { next, type NodeExecutor } from '../node-executor.ts';

const IMAGE_MIMES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);

/** Fetches the image (with the bearer token when given) so WhatsApp gets our copy; a failure sends errorMessage instead. */
export const sendImage: NodeExecutor<'sendImage'> = {
  async run(data, ctx) {
    const url = ctx.interpolate(data.imageUrl).trim();
    const failed = (reason: string) => {
      ctx.report(`[No se pudo cargar la imagen ${url || '(sin URL)'}: ${reason}]`);
      const text = ctx.interpolate(data.errorMessage).trim();
      if (text) ctx.say({ type: 'text', text });
      return next();
    };
    if (!url) return failed('falta la URL de la imagen');
    try {
      const token = ctx.interpolate(data.authToken).trim();
      const response = await ctx.services.http({ url, headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (response.status < 200 || response.status >= 300) return failed(`el servidor respondió ${response.status}`);
      const detected = await fileTypeFromBuffer(response.body);
      if (!detected || !IMAGE_MIMES.has(detected.mime)) return failed('el archivo no es una imagen JPEG, PNG, WebP o GIF');
      ctx.say({ type: 'image', url, data: response.body, mime: detected.mime, extension: detected.ext });
    } catch (error) {
      return failed(error instanceof Error ? error.message : String(error));
    }
    return next();
  },
};
