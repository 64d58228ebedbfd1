import type { NodeType } from '@embudo/contracts/flows/flow';

export interface NodeLook {
  title: string;
  description: string;
  /** Tailwind classes of the node's header and palette chip. */
  accent: string;
}

/** Spec 02 §9: nodes are 280 px wide on the canvas. */
export const NODE_WIDTH = 280;

/** How each node type shows in the palette and on the canvas. */
export const nodeLooks: Record<NodeType, NodeLook> = {
  trigger: { title: 'Disparador', description: 'Dónde empieza el flujo', accent: 'bg-emerald-600 text-white' },
  sendMessage: { title: 'Enviar Mensaje', description: 'Un mensaje de texto', accent: 'bg-sky-600 text-white' },
  sendImage: { title: 'Enviar Imagen', description: 'Una imagen desde una URL', accent: 'bg-sky-500 text-white' },
  sendMessageWithOptions: { title: 'Mensaje con Opciones', description: 'Pregunta y espera una opción', accent: 'bg-indigo-600 text-white' },
  condition: { title: 'Condición', description: 'Sigue por verdadero o falso', accent: 'bg-amber-500 text-white' },
  timer: { title: 'Temporizador', description: 'Espera antes de seguir', accent: 'bg-orange-500 text-white' },
  redirect: { title: 'Redirigir', description: 'Mueve el chat a una columna', accent: 'bg-violet-600 text-white' },
  schedule: { title: 'Agendar', description: 'Ofrece horarios de la agenda', accent: 'bg-teal-600 text-white' },
  sendEmail: { title: 'Enviar Email', description: 'Un correo a tu equipo', accent: 'bg-cyan-700 text-white' },
  aiPrompt: { title: 'Prompt de IA', description: 'Responde con IA', accent: 'bg-fuchsia-600 text-white' },
  webhook: { title: 'Webhook', description: 'Llama a una URL', accent: 'bg-slate-700 text-white' },
  setVariable: { title: 'Establecer Variable', description: 'Guarda un valor', accent: 'bg-lime-600 text-white' },
  assignToHuman: { title: 'Asignar a Humano', description: 'Pasa el chat a una persona', accent: 'bg-rose-600 text-white' },
  end: { title: 'Fin', description: 'Termina el flujo', accent: 'bg-slate-500 text-white' },
};
