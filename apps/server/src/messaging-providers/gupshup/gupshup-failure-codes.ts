/**
 * What Gupshup's failure codes mean, in Spanish, for the WhatsApp activity panel (shared/provider/gupshup.md §8; Meta's
 * Cloud API codes it passes through, meta-cloud.md). An unknown code has no explanation: the panel shows the
 * provider's own words.
 */
const EXPLANATIONS: Record<string, string> = {
  '1001': 'El remitente no coincide con la app de Gupshup.',
  '1002': 'El número no tiene WhatsApp.',
  '1003': 'El saldo de la cuenta de Gupshup es insuficiente.',
  '1004': 'El cliente está fuera de la ventana de 24 horas y los envíos de plantillas están desactivados.',
  '1005': 'El cliente está fuera de la ventana de 24 horas y la plantilla no coincide.',
  '1006': 'El cliente está fuera de la ventana de 24 horas y no dio su consentimiento (opt-in).',
  '1007': 'Fuera de la ventana de 24 horas, sin consentimiento y con una plantilla que no coincide.',
  '1008': 'El cliente no dio su consentimiento y está inactivo.',
  '1010': 'La URL del archivo no es válida.',
  '1011': 'El tamaño del archivo no es válido.',
  '1012': 'El cliente pidió no recibir más mensajes (opt-out).',
  '4001': 'Gupshup limitó la cantidad de envíos: se reintenta más tarde.',
  '4002': 'WhatsApp respondió algo no válido.',
  '4003': 'La plantilla no coincide con ninguna aprobada.',
  '4004': 'Función disponible solo con la API de Cloud de Meta.',
  '4005': 'La plantilla está pausada.',
  '500': 'Error interno del proveedor.',
  '130429': 'Se superó el ritmo de envío del número.',
  '131026': 'WhatsApp no pudo entregar el mensaje.',
  '131047': 'Pasaron más de 24 horas desde el último mensaje del cliente: solo se puede enviar una plantilla.',
  '131048': 'WhatsApp limitó los envíos por posible spam.',
  '131049': 'WhatsApp limitó los mensajes de marketing a este cliente.',
  '131056': 'Demasiados mensajes seguidos al mismo cliente.',
};

export function gupshupFailureInSpanish(code: string): string | undefined {
  return EXPLANATIONS[code];
}
