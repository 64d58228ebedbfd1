import type { BotConfig, FlowNode } from '@embudo/contracts/flows/flow';

/** trigger → "¿Qué necesitas?" with two options → one message per branch: the flow the playground and e2e build. */
export function optionsFlow(): { nodes: FlowNode[]; edges: BotConfig['edges'] } {
  return {
    nodes: [
      { id: 'trigger-1', type: 'trigger', position: { x: 0, y: 0 }, data: { label: 'Inicio', triggerType: 'on_message_received', columnId: '' } },
      {
        id: 'options-1',
        type: 'sendMessageWithOptions',
        position: { x: 0, y: 150 },
        data: {
          label: 'Menú',
          text: '¿Qué necesitas?',
          options: [
            { id: 'cita', label: 'Agendar cita', value: 'cita' },
            { id: 'ventas', label: 'Hablar con ventas', value: 'ventas' },
          ],
        },
      },
      { id: 'msg-cita', type: 'sendMessage', position: { x: -200, y: 300 }, data: { label: 'Cita', text: 'Perfecto, agendemos tu cita.' } },
      { id: 'msg-ventas', type: 'sendMessage', position: { x: 200, y: 300 }, data: { label: 'Ventas', text: 'Te paso con ventas.' } },
    ],
    edges: [
      { id: 'e-start', source: 'trigger-1', target: 'options-1', sourceHandle: null, targetHandle: null },
      { id: 'e-cita', source: 'options-1', target: 'msg-cita', sourceHandle: 'cita', targetHandle: null },
      { id: 'e-ventas', source: 'options-1', target: 'msg-ventas', sourceHandle: 'ventas', targetHandle: null },
    ],
  };
}
