import type { GeminiConfig } from '@embudo/contracts/http/funnels';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { TabBar } from '../../shared/ui/TabBar.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { AssignedTemplatesTab } from './AssignedTemplatesTab.tsx';
import { AssistantGeneralFields, ToolFilesEditor, toolFileStatesKey, useAssistantDraft } from './AssistantFields.tsx';
import { boardApi, type BoardColumn, type Column } from './board.api.ts';
import { QuickRepliesTab } from './QuickRepliesTab.tsx';

type SettingsTab = 'quick-replies' | 'templates' | 'assistant';

/** Saves the column's assistant config with the spec's messages; shared by both assistant dialogs. */
export function useSaveAssistant(column: Pick<BoardColumn, 'id'>, onSaved: (column: Column) => void) {
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: GeminiConfig) => boardApi.updateColumn(column.id, { gemini_config: config }),
    onSuccess: (saved) => {
      toast.success('Asistente de columna actualizado.');
      void queryClient.invalidateQueries({ queryKey: toolFileStatesKey(column.id) });
      onSaved(saved);
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al actualizar.')),
  });
}

function AssistantTab({ column, onSaved }: { column: BoardColumn; onSaved: (column: Column) => void }) {
  const { draft, setDraft, changeTools, uploads } = useAssistantDraft(column);
  const save = useSaveAssistant(column, onSaved);
  return (
    <div className="space-y-5">
      <AssistantGeneralFields value={draft} onChange={setDraft} />
      <ToolFilesEditor columnId={column.id} tools={draft.tools} onChange={changeTools} uploads={uploads} />
      <div className="flex justify-end">
        <Button onClick={() => save.mutate(draft)} loading={save.isPending} disabled={uploads.pending > 0}>
          Guardar asistente
        </Button>
      </div>
    </div>
  );
}

/** Column settings (spec 01 §2 Other dialogs): tabs Respuestas Rápidas, Plantillas, Asistente. */
export function ColumnSettingsDialog({ column, onSaved, onClose }: { column: BoardColumn; onSaved: (column: Column) => void; onClose: () => void }) {
  const [tab, setTab] = useState<SettingsTab>('quick-replies');
  return (
    <Modal title="Configuración de columna" description={column.title} onClose={onClose} size="lg">
      <TabBar
        label="Configuración de columna"
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: 'quick-replies', label: 'Respuestas Rápidas' },
          { id: 'templates', label: 'Plantillas' },
          { id: 'assistant', label: 'Asistente' },
        ]}
      />
      <div role="tabpanel">
        {tab === 'quick-replies' && <QuickRepliesTab columnId={column.id} />}
        {tab === 'templates' && <AssignedTemplatesTab columnId={column.id} />}
        {tab === 'assistant' && <AssistantTab column={column} onSaved={onSaved} />}
      </div>
    </Modal>
  );
}
