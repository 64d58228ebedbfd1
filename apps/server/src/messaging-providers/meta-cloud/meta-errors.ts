import { knownFailure, providerFailure, type FailureKind, type KnownFailure, type ProviderFailure } from '../provider.ts';

/**
 * Every code of Meta's published list for the Cloud API ("Error codes", developers.facebook.com/docs/whatsapp/
 * cloud-api/support/error-codes: authorization, integrity, throttling and other errors, and the Marketing Messages
 * API's additions), with Meta's title, our kind and a reason a small business can act on. 200 stands for the whole
 * 200–299 permission range. Gupshup passes these codes through in its failed events too (gupshup.md §8), so the
 * reasons say what to do without assuming the company's own Meta app where they can.
 */
export const META_ERRORS: Readonly<Record<number, KnownFailure>> = {
  // Authorization
  0: {
    title: 'AuthException',
    kind: 'unauthorized',
    reason: 'Meta no pudo autenticar la app: el token de acceso venció o fue revocado; genera uno nuevo y guárdalo en Conexión WhatsApp',
  },
  3: {
    title: 'API Method',
    kind: 'unauthorized',
    reason: 'La app de Meta no tiene el permiso que pide este envío: revisa los permisos del token guardado en Conexión WhatsApp',
  },
  10: {
    title: 'Permission Denied',
    kind: 'unauthorized',
    reason: 'Meta negó el permiso: el token no tiene acceso a este número; dale los permisos de WhatsApp y guárdalo en Conexión WhatsApp',
  },
  190: {
    title: 'Access token has expired',
    kind: 'token_expired',
    reason: 'El token de acceso de Meta venció o no es válido: actualízalo en Conexión WhatsApp',
  },
  200: {
    title: 'API Permission',
    kind: 'unauthorized',
    reason: 'Meta negó el permiso a la app: revisa que el token guardado en Conexión WhatsApp tenga los permisos de WhatsApp',
  },
  // Integrity
  368: {
    title: 'Temporarily blocked for policies violations',
    kind: 'account_restricted',
    reason: 'Meta restringió tu cuenta de WhatsApp Business por infringir sus políticas: revisa el aviso en WhatsApp Manager y apela si corresponde',
  },
  130497: {
    title: 'Business account is restricted from messaging users in this country',
    kind: 'account_restricted',
    reason: 'Tu cuenta de WhatsApp Business no puede escribir a clientes de ese país: revisa qué países permiten las políticas de WhatsApp para tu rubro',
  },
  131031: {
    title: 'Account has been locked',
    kind: 'unauthorized',
    reason: 'Meta bloqueó tu cuenta de WhatsApp Business por sus políticas o por un PIN incorrecto: revisa el estado de la cuenta en WhatsApp Manager',
  },
  // Throttling
  4: {
    title: 'API Too Many Calls',
    kind: 'api_limit',
    reason: 'La app de Meta llegó a su límite de llamadas: espera unos minutos y vuelve a enviar',
  },
  80007: {
    title: 'Rate limit issues',
    kind: 'api_limit',
    reason: 'Tu cuenta de WhatsApp Business llegó a su límite de llamadas: espera unos minutos y vuelve a enviar',
  },
  130429: {
    title: 'Rate limit hit',
    kind: 'rate_limited',
    reason: 'Límite de envíos alcanzado: se reintentará',
  },
  131048: {
    title: 'Spam rate limit hit',
    kind: 'marketing_limit',
    reason: 'WhatsApp limitó los envíos de tu número porque muchos mensajes fueron bloqueados o reportados: revisa la calidad en WhatsApp Manager',
  },
  131056: {
    title: '(Business Account, Consumer Account) pair rate limit hit',
    kind: 'rate_limited',
    reason: 'Demasiados mensajes seguidos a este cliente: se reintentará en unos segundos',
  },
  131064: {
    title: 'Messaging limit due to template classification violations',
    kind: 'account_restricted',
    reason: 'WhatsApp limitó tus envíos porque algunas plantillas tenían una categoría equivocada: corrige sus categorías; el límite se levanta solo',
  },
  133016: {
    title: 'Account register deregister rate limit exceeded',
    kind: 'number_registration',
    reason: 'Demasiados intentos de registrar o dar de baja el número: quedó bloqueado un tiempo; vuelve a intentarlo más tarde',
  },
  // Other errors
  1: {
    title: 'API Unknown',
    kind: 'provider_error',
    reason: 'Meta rechazó la solicitud o tuvo una falla: revisa el estado de WhatsApp en metastatus.com y vuelve a intentarlo',
  },
  2: {
    title: 'API Service',
    kind: 'provider_error',
    reason: 'WhatsApp no está disponible por una caída o sobrecarga temporal: vuelve a intentarlo en unos minutos',
  },
  33: {
    title: 'Parameter value is not valid (the business phone number has been deleted)',
    kind: 'number_registration',
    reason: 'El número de WhatsApp de tu empresa fue eliminado en Meta: revisa el identificador del número en Conexión WhatsApp',
  },
  100: {
    title: 'Invalid parameter',
    kind: 'invalid_request',
    reason: 'WhatsApp no aceptó un dato del mensaje: revisa su contenido y vuelve a enviarlo; si se repite, avisa a soporte',
  },
  130403: {
    title: 'This business has blocked the end user on WhatsApp',
    kind: 'contact_blocked',
    reason: 'Tu empresa bloqueó a este cliente en WhatsApp: desbloquéalo para poder escribirle',
  },
  130472: {
    title: "User's number is part of an experiment",
    kind: 'experiment',
    reason: 'Mensaje no entregado: el número del cliente participa en un experimento de WhatsApp que limita el marketing; contáctalo por otra vía',
  },
  131000: {
    title: 'Something went wrong',
    kind: 'provider_error',
    reason: 'WhatsApp no pudo enviar el mensaje por una falla desconocida: vuelve a intentarlo; si se repite, avisa a soporte',
  },
  131005: {
    title: 'Access denied',
    kind: 'unauthorized',
    reason: 'Meta negó el acceso: el token ya no tiene permiso para enviar; revisa sus permisos en Conexión WhatsApp',
  },
  131008: {
    title: 'Required parameter is missing',
    kind: 'invalid_request',
    reason: 'Al mensaje le falta un dato que WhatsApp exige: revisa el texto, el archivo o las variables y vuelve a enviarlo',
  },
  131009: {
    title: 'Parameter value is not valid',
    kind: 'invalid_request',
    reason: 'WhatsApp no aceptó un valor del mensaje (por ejemplo, el número o un botón): revísalo y vuelve a enviarlo',
  },
  131016: {
    title: 'Service unavailable',
    kind: 'provider_error',
    reason: 'Un servicio de WhatsApp no está disponible por ahora: vuelve a intentarlo en unos minutos',
  },
  131021: {
    title: 'Recipient cannot be sender',
    kind: 'invalid_number',
    reason: 'El número del cliente es el mismo de tu empresa: escribe a otro número',
  },
  131026: {
    title: 'Message Undeliverable',
    kind: 'not_on_whatsapp',
    reason: 'WhatsApp no pudo entregarlo: el número no tiene WhatsApp, o el cliente debe actualizar la app o aceptar sus términos',
  },
  131037: {
    title: 'WhatsApp provided number needs display name approval before message can be sent',
    kind: 'account_setup',
    reason: 'El nombre visible de tu número de WhatsApp aún no está aprobado: cámbialo o espera la aprobación en WhatsApp Manager',
  },
  131042: {
    title: 'Business eligibility payment issue',
    kind: 'balance',
    reason: 'Hay un problema con el método de pago de tu cuenta de WhatsApp Business: revisa la facturación en Meta Business',
  },
  131045: {
    title: 'Incorrect certificate',
    kind: 'number_registration',
    reason: 'El número de tu empresa no está bien registrado en WhatsApp: regístralo de nuevo en WhatsApp Manager y vuelve a enviar',
  },
  131047: {
    title: 'Re-engagement message',
    kind: 'window_closed',
    reason: 'Ventana de 24 horas cerrada: usa una plantilla',
  },
  131049: {
    title: 'This message was not delivered to maintain healthy ecosystem engagement',
    kind: 'marketing_limit',
    reason: 'WhatsApp no entregó este marketing porque el cliente ya recibió muchos: espera al menos 24 horas o usa una plantilla de utilidad',
  },
  131050: {
    title: 'User has stopped marketing messages',
    kind: 'opted_out',
    reason: 'El cliente pidió no recibir marketing de tu empresa en WhatsApp: no vuelvas a enviárselo',
  },
  131051: {
    title: 'Unsupported message type',
    kind: 'invalid_request',
    reason: 'WhatsApp no admite este tipo de mensaje: envíalo como texto, imagen, documento u otro tipo admitido',
  },
  131052: {
    title: 'Media download error',
    kind: 'media',
    reason: 'WhatsApp no pudo descargar el archivo que envió el cliente: pídele que lo mande por otra vía',
  },
  131053: {
    title: 'Media upload error',
    kind: 'media',
    reason: 'WhatsApp no pudo subir el archivo del mensaje: revisa que su formato y tamaño estén permitidos y vuelve a enviarlo',
  },
  131055: {
    title: 'Method not allowed',
    kind: 'invalid_request',
    reason: 'Este canal de envío de marketing solo acepta plantillas de marketing: usa una de ellas',
  },
  131057: {
    title: 'Account in maintenance mode',
    kind: 'provider_error',
    reason: 'Tu cuenta de WhatsApp Business está en mantenimiento (por ejemplo, por una mejora de capacidad): vuelve a intentarlo en unos minutos',
  },
  131058: {
    title: 'Hello World templates can only be sent from the Public Test Numbers',
    kind: 'template_missing',
    reason: 'La plantilla de ejemplo de Meta solo sale desde sus números de prueba: usa una plantilla tuya aprobada',
  },
  131063: {
    title: 'Marketing templates are currently disabled for your Cloud API configuration',
    kind: 'account_setup',
    reason: 'Tu cuenta de WhatsApp tiene desactivadas las plantillas de marketing por la API: vuelve a activarlas en Meta o usa otra plantilla',
  },
  132000: {
    title: 'Template Param Count Mismatch',
    kind: 'template_mismatch',
    reason: 'La cantidad de variables no coincide con la plantilla aprobada: completa todas sus variables',
  },
  132001: {
    title: 'Template does not exist',
    kind: 'template_missing',
    reason: 'La plantilla no existe en ese idioma o aún no está aprobada: sincroniza las plantillas y elige una aprobada',
  },
  132005: {
    title: 'Template Hydrated Text Too Long',
    kind: 'template_mismatch',
    reason: 'El texto de la plantilla con sus variables es demasiado largo: acorta los valores de las variables',
  },
  132007: {
    title: 'Template Format Character Policy Violated',
    kind: 'template_mismatch',
    reason: 'El contenido de la plantilla infringe una política de WhatsApp: edítala o crea otra',
  },
  132012: {
    title: 'Template Parameter Format Mismatch',
    kind: 'template_mismatch',
    reason: 'Una variable no tiene el formato que pide la plantilla: revisa los valores de las variables',
  },
  132015: {
    title: 'Template is Paused',
    kind: 'template_paused',
    reason: 'Plantilla pausada por Meta por baja calidad: edítala o usa otra plantilla',
  },
  132016: {
    title: 'Template is Disabled',
    kind: 'template_disabled',
    reason: 'Plantilla desactivada para siempre por Meta por baja calidad: crea una nueva con otro contenido',
  },
  132018: {
    title: 'Template validation error',
    kind: 'template_mismatch',
    reason: 'Hay un problema con las variables de la plantilla: revísalas y vuelve a enviarla',
  },
  132068: {
    title: 'Flow is blocked',
    kind: 'template_mismatch',
    reason: 'El formulario (flujo) de este mensaje está bloqueado: corrígelo en WhatsApp Manager',
  },
  132069: {
    title: 'Flow is throttled',
    kind: 'template_mismatch',
    reason: 'El formulario (flujo) de este mensaje está limitado y ya salió 10 veces en la última hora: corrígelo o espera una hora',
  },
  133000: {
    title: 'Incomplete Deregistration',
    kind: 'number_registration',
    reason: 'Falló un intento anterior de dar de baja el número: dalo de baja otra vez antes de registrarlo',
  },
  133004: {
    title: 'Server Temporarily Unavailable',
    kind: 'provider_error',
    reason: 'El servidor de WhatsApp no está disponible por ahora: vuelve a intentarlo en unos minutos',
  },
  133005: {
    title: 'Two step verification PIN Mismatch',
    kind: 'number_registration',
    reason: 'El PIN de verificación en dos pasos del número no es correcto: revísalo o restablécelo en WhatsApp Manager',
  },
  133006: {
    title: 'Phone number re-verification needed',
    kind: 'number_registration',
    reason: 'El número de tu empresa debe verificarse antes de registrarse: verifícalo en WhatsApp Manager',
  },
  133008: {
    title: 'Too Many two step verification PIN Guesses',
    kind: 'number_registration',
    reason: 'Demasiados intentos con el PIN de verificación en dos pasos: espera el tiempo que indica Meta y vuelve a intentarlo',
  },
  133009: {
    title: 'Two step verification PIN Guessed Too Fast',
    kind: 'number_registration',
    reason: 'El PIN de verificación en dos pasos se ingresó demasiado rápido: espera un momento y vuelve a intentarlo',
  },
  133010: {
    title: 'Phone number Not Registered',
    kind: 'number_registration',
    reason: 'El número de tu empresa no está registrado en la plataforma de WhatsApp Business: regístralo en WhatsApp Manager',
  },
  133015: {
    title: 'Please wait a few minutes before attempting to register this phone number',
    kind: 'number_registration',
    reason: 'El número se eliminó hace poco y Meta aún no termina: espera 5 minutos antes de registrarlo otra vez',
  },
  134011: {
    title: 'WhatsApp Payments terms of service acceptance pending',
    kind: 'account_setup',
    reason: 'Falta aceptar los términos de pagos de WhatsApp en tu cuenta: acéptalos con el enlace que envió Meta y vuelve a enviar',
  },
  134100: {
    title: 'Only marketing messages supported',
    kind: 'invalid_request',
    reason: 'Por este canal de marketing no salen plantillas de utilidad ni de autenticación: usa una plantilla de marketing',
  },
  134101: {
    title: 'Your template is still syncing',
    kind: 'template_missing',
    reason: 'La plantilla recién creada aún se está sincronizando: espera unos 10 minutos y vuelve a enviarla',
  },
  134102: {
    title: 'Template unavailable for use',
    kind: 'template_missing',
    reason: 'La plantilla no está disponible para este canal de marketing: revisa que tu cuenta esté habilitada o avisa a soporte',
  },
  135000: {
    title: 'Generic user error',
    kind: 'invalid_request',
    reason: 'WhatsApp no entendió los datos del mensaje: revisa su contenido y vuelve a enviarlo; si se repite, avisa a soporte',
  },
};

/** Permission codes 200–299 share one entry (Meta publishes them as a range). */
const isPermissionRange = (code: number) => code >= 200 && code <= 299;

/** The table's entry for a code, the permission range included. */
export function metaError(code: number): KnownFailure | undefined {
  return META_ERRORS[code] ?? (isPermissionRange(code) ? META_ERRORS[200] : undefined);
}

/** Our kind of a code: the table's, else by its series (1320xx are about the template). */
export function metaFailureKind(code: number | undefined): FailureKind {
  if (code === undefined) return 'other';
  const known = metaError(code);
  if (known) return known.kind;
  if (code >= 132000 && code < 133000) return 'template_mismatch';
  return 'other';
}

/** Worth trying again later: throughput and pair limits, and Meta's own temporary errors (1, 2, 131000, 131016). */
export function metaRetryable(code: number | undefined, httpStatus?: number): boolean {
  if (code === 130429 || code === 131056 || code === 1 || code === 2 || code === 131000 || code === 131016) return true;
  return httpStatus !== undefined && (httpStatus === 429 || httpStatus >= 500);
}

/**
 * A Meta error as a failure people read: the table's reason of its code, else the kind's, else one naming the
 * code. Meta's `details` and title stay out of it (they are English); the ProviderError's message keeps them.
 */
export function metaFailure(code: number | undefined): ProviderFailure {
  const known = code === undefined ? undefined : metaError(code);
  return known ? knownFailure(known, code!) : providerFailure(metaFailureKind(code), code);
}

/** A code Meta sent as a number or a numeric string; anything else is no code. */
export function metaCode(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(number) ? number : undefined;
}
