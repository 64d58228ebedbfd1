import type { BotConfigInput } from '@embudo/contracts/flows/flow';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';

/** Ver JSON: the flow's nodes and edges as the server will save them, read-only. */
export function JsonViewModal({ config, onClose }: { config: BotConfigInput; onClose: () => void }) {
  return (
    <Modal
      title="JSON del flujo"
      onClose={onClose}
      size="lg"
      footer={
        <Button variant="secondary" onClick={onClose}>
          Cerrar
        </Button>
      }
    >
      <pre data-testid="flow-json" className="max-h-[60vh] overflow-auto rounded-lg bg-slate-900 p-4 font-mono text-xs text-emerald-100">
        {JSON.stringify({ nodes: config.nodes, edges: config.edges }, null, 2)}
      </pre>
    </Modal>
  );
}
