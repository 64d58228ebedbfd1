import { next, type NodeExecutor } from '../node-executor.ts';

export const EMAIL_NOT_CONFIGURED = 'El envío de e-mail no está configurado (falta SMTP_URL): el correo no se envió.';
export const EMAIL_STATUS_VARIABLE = 'email_status';

/** Sends through SMTP_URL; without it the e-mail is recorded as not sent and the flow goes on. */
export const sendEmail: NodeExecutor<'sendEmail'> = {
  async run(data, ctx) {
    const email = { to: ctx.interpolate(data.to).trim(), subject: ctx.interpolate(data.subject), body: ctx.interpolate(data.body) };
    if (!ctx.services.email) {
      ctx.variables[EMAIL_STATUS_VARIABLE] = 'not_configured';
      ctx.report(`[✉ ${EMAIL_NOT_CONFIGURED}]`);
      return next();
    }
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.to)) {
      ctx.variables[EMAIL_STATUS_VARIABLE] = 'invalid_address';
      ctx.report(`[✉ El destinatario «${email.to}» no es un e-mail válido: el correo no se envió]`);
      return next();
    }
    try {
      await ctx.services.email.send(email);
      ctx.variables[EMAIL_STATUS_VARIABLE] = 'sent';
      ctx.report(`[✉ E-mail enviado a ${email.to}]`);
    } catch (error) {
      ctx.variables[EMAIL_STATUS_VARIABLE] = 'failed';
      ctx.report(`[✉ No se pudo enviar el e-mail a ${email.to}: ${error instanceof Error ? error.message : String(error)}]`);
    }
    return next();
  },
};
