import { knownFailure, providerFailure, unexplainedFailure, type KnownFailure, type ProviderFailure } from '../provider.ts';
import { metaCode, metaFailure } from '../meta-cloud/meta-errors.ts';

/**
 * Gupshup's own failure codes, as its "Error codes" page publishes them (docs.gupshup.io/docs/error-and-status-messages,
 * gupshup.md §8), with Gupshup's title, our kind and a reason a small business can act on. WhatsApp's 13xxxx codes
 * pass through in the same events and are read as Meta's.
 */
export const GUPSHUP_ERRORS: Readonly<Record<number, KnownFailure>> = {
  500: {
    title: 'Internal Server Error',
    kind: 'provider_error',
    reason: 'Gupshup tuvo una falla interna y no envió el mensaje: vuelve a intentarlo; si se repite, avisa a soporte',
  },
  1001: {
    title: 'Last Mapped Bot Failed',
    kind: 'account_setup',
    reason: 'La app de Gupshup está en modo de prueba: el cliente debe enviar «proxy» y el nombre de la app al número de prueba de Gupshup',
  },
  1002: {
    title: 'Number Not Exist On WhatsApp',
    kind: 'not_on_whatsapp',
    reason: 'El cliente no tiene WhatsApp: confirma su número por otra vía',
  },
  1003: {
    title: 'Wallet Balance Low',
    kind: 'balance',
    reason: 'Saldo insuficiente en la billetera de Gupshup: recárgala para volver a enviar',
  },
  1004: {
    title: 'Template Disabled Failure',
    kind: 'window_closed',
    reason: 'Ventana de 24 horas cerrada y la app de Gupshup tiene las plantillas desactivadas: actívalas en Gupshup y usa una plantilla',
  },
  1005: {
    title: 'Template Match Failed',
    kind: 'template_mismatch',
    reason: 'Ventana de 24 horas cerrada y el mensaje no coincide con una plantilla aprobada: usa una plantilla',
  },
  1006: {
    title: 'Template Opt-in Failure',
    kind: 'window_closed',
    reason: 'Ventana de 24 horas cerrada y el cliente no aceptó recibir plantillas: pide su permiso antes de escribirle',
  },
  1007: {
    title: 'Template Opt-in Match Failure',
    kind: 'window_closed',
    reason: 'Ventana de 24 horas cerrada, el cliente no dio su permiso y el mensaje no es una plantilla aprobada: usa una plantilla con su permiso',
  },
  1008: {
    title: 'Neither Proxied Nor Opted-in',
    kind: 'window_closed',
    reason: 'El cliente no dio su permiso ni escribió en las últimas 24 horas: espera a que te escriba o pide su permiso',
  },
  1010: {
    title: 'Invalid Media Url',
    kind: 'media',
    reason: 'Gupshup no pudo usar el enlace del archivo: revisa que sea público y de un formato permitido',
  },
  1011: {
    title: 'Invalid Media Size',
    kind: 'media',
    reason: 'El archivo pesa más de lo que WhatsApp permite para ese tipo: envía uno más liviano',
  },
  1012: {
    title: 'Number Opted Out',
    kind: 'opted_out',
    reason: 'El cliente pidió no recibir mensajes de tu empresa: no le escribas hasta que vuelva a escribirte',
  },
  4001: {
    title: 'API Rate Limited',
    kind: 'rate_limited',
    reason: 'Límite de envíos de Gupshup alcanzado: se reintentará',
  },
  4002: {
    title: 'Invalid Response From WhatsApp',
    kind: 'provider_error',
    reason: 'WhatsApp le respondió a Gupshup con un error: vuelve a intentarlo en unos minutos',
  },
  4003: {
    title: 'No Template Match',
    kind: 'template_missing',
    reason: 'El mensaje no coincide con ninguna plantilla aprobada en Gupshup: sincroniza las plantillas y elige una aprobada',
  },
  4004: {
    title: 'Only CAPI Feature',
    kind: 'invalid_request',
    reason: 'Este tipo de mensaje solo sale por la API en la nube de Meta: envíalo de otra forma o conecta tu número por Meta',
  },
  4005: {
    title: 'Paused Template',
    kind: 'template_paused',
    reason: 'Plantilla pausada por Meta por baja calidad: edítala o usa otra plantilla',
  },
};

/**
 * What Gupshup answers a send it refuses (`{"status":"error","message":…}`), by its message: the ones its send and
 * partner pages publish (gupshup.md §2, §3, §8). `status` is the HTTP status it comes with.
 */
export const GUPSHUP_SEND_ERRORS: Readonly<Record<string, KnownFailure & { status: number }>> = {
  'Authentication Failed': {
    status: 401,
    title: 'Authentication Failed',
    kind: 'unauthorized',
    reason: 'Gupshup rechazó la clave de su API: pide al operador de la plataforma que la revise',
  },
  'Unauthorised access to the resource. Please review request parameters and headers and retry': {
    status: 401,
    title: 'Unauthorised access to the resource',
    kind: 'unauthorized',
    reason: 'Gupshup negó el acceso a la app: pide al operador de la plataforma que revise la clave y los permisos',
  },
  'Invalid App Details': {
    status: 400,
    title: 'Invalid App Details',
    kind: 'account_setup',
    reason: 'Gupshup no reconoce la app o su número: revisa el nombre de la app y el número de origen en Conexión WhatsApp',
  },
  'Invalid Destination': {
    status: 400,
    title: 'Invalid Destination',
    kind: 'invalid_number',
    reason: 'El número del cliente no es válido: revisa que tenga código de país y solo dígitos',
  },
  'Invalid Message': {
    status: 400,
    title: 'Invalid Message',
    kind: 'invalid_request',
    reason: 'Gupshup no aceptó el contenido del mensaje: revisa el texto, los botones o el archivo y vuelve a enviarlo',
  },
  'Callback Billing must be enabled for this API': {
    status: 400,
    title: 'Callback Billing must be enabled for this API',
    kind: 'account_setup',
    reason: 'La app de Gupshup necesita activada la facturación por eventos para este envío: actívala en el panel de Gupshup',
  },
  'Too Many Requests': {
    status: 429,
    title: 'Too Many Requests',
    kind: 'rate_limited',
    reason: 'Límite de envíos alcanzado: se reintentará',
  },
  'Internal Server Error': {
    status: 500,
    ...GUPSHUP_ERRORS[500]!,
  },
};

/** The send errors by their message as Gupshup may case it. */
const sendErrors = new Map(Object.entries(GUPSHUP_SEND_ERRORS).map(([message, entry]) => [message.toLowerCase(), entry]));

/**
 * A failed event's `code` as a failure people read: Gupshup's table, WhatsApp's for 13xxxx codes, else one naming
 * the code. Gupshup's `reason` (English) stays out of it.
 */
export function gupshupFailure(code: unknown): ProviderFailure {
  const number = metaCode(code);
  if (number !== undefined && number >= 100_000) return metaFailure(number);
  const known = number === undefined ? undefined : GUPSHUP_ERRORS[number];
  if (known) return knownFailure(known, number!);
  const given = number ?? (typeof code === 'string' ? code : null);
  const failure = providerFailure('other', given);
  return failure.code ? { ...failure, reason: unexplainedFailure('Gupshup', failure.code) } : failure;
}

/**
 * What Gupshup's answer to a send says, by its message and HTTP status (the status is the code kept). A message
 * the table does not list is read by its status: 429 a rate limit, 401/403 the key, 5xx Gupshup's own failure.
 */
export function gupshupSendFailure(status: number, message: string | undefined): ProviderFailure {
  const byMessage = message === undefined ? undefined : sendErrors.get(message.trim().toLowerCase());
  const known =
    status === 429
      ? GUPSHUP_SEND_ERRORS['Too Many Requests']
      : (byMessage ?? (status === 401 || status === 403 ? GUPSHUP_SEND_ERRORS['Authentication Failed'] : status >= 500 ? GUPSHUP_ERRORS[500] : undefined));
  return known ? knownFailure(known, status) : providerFailure('other', status, unexplainedFailure('Gupshup', String(status)));
}
