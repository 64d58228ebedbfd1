import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { botsApi, botsKeys } from '../bots/bots.api.ts';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { TabBar } from '../../shared/ui/TabBar.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { AssistantGeneralFields, ToolFilesEditor, useAssistantDraft } from './AssistantFields.tsx';
import { boardApi, type BoardColumn, type Column } from './board.api.ts';
import { useSaveAssistant } from './ColumnSettingsDialog.tsx';

type BotTab = 'general' | 'tools' | 'flow';

/** 'Configurar Bot Gemini': tabs General, Herramientas and a disabled 'Flujo (Próximamente)'. */
export function ColumnBotDialog({ column, onSaved, onClose }: { column: BoardColumn; onSaved: (column: Column) => void; onClose: () => void }) {
  const toast = useToast();
  const id = useId();
  const [tab, setTab] = useState<BotTab>('general');
  const { draft, setDraft, changeTools, uploads } = useAssistantDraft(column);
  const [botId, setBotId] = useState(column.assistant_bot_id ?? '');
  const bots = useQuery({ queryKey: botsKeys.all, queryFn: botsApi.list });
  const save = useSaveAssistant(column, onSaved);

  useEffect(() => {
    if (bots.isError) toast.error(errorMessageOr(bots.error, 'Error al cargar bots.'));
  }, [bots.isError, bots.error, toast]);

  // Choosing a bot is saved at once; the server turns the generic assistant off (spec 01 §4).
  const chooseBot = async (next: string) => {
    const previous = botId;
    setBotId(next);
    try {
      const saved = await boardApi.updateColumn(column.id, { assistant_bot_id: next || null });
      if (saved.gemini_config) setDraft((current) => ({ ...current, isEnabled: saved.gemini_config!.isEnabled }));
      onSaved(saved);
    } catch (error) {
      setBotId(previous);
      toast.error(errorMessageOr(error, 'Error al actualizar.'));
    }
  };

  return (
    <Modal
      title="Configurar Bot Gemini"
      description={column.title}
      onClose={onClose}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cerrar
          </Button>
          <Button onClick={() => save.mutate(draft)} loading={save.isPending} disabled={uploads.pending > 0}>
            Guardar
          </Button>
        </>
      }
    >
      <TabBar
        label="Configurar Bot Gemini"
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: 'general', label: 'General' },
          { id: 'tools', label: 'Herramientas' },
          { id: 'flow', label: 'Flujo (Próximamente)', disabled: true, title: 'Próximamente' },
        ]}
      />
      <div role="tabpanel">
        {tab === 'general' ? (
          <div className="space-y-5">
            <div>
              <label htmlFor={`${id}-bot`} className="mb-1.5 block text-sm font-medium text-slate-700">
                Bot de la columna
              </label>
              <select
                id={`${id}-bot`}
                value={botId}
                disabled={bots.isLoading}
                onChange={(event) => void chooseBot(event.target.value)}
                className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
              >
                <option value="">Ninguno (asistente AI genérico)</option>
                {(bots.data ?? []).map((bot) => (
                  <option key={bot.id} value={bot.id}>
                    {bot.name}
                  </option>
                ))}
              </select>
              <p className="mt-1.5 text-xs text-slate-500">Elegir un bot desactiva el asistente AI genérico en esta columna.</p>
            </div>
            <AssistantGeneralFields value={draft} onChange={setDraft} />
          </div>
        ) : (
          <ToolFilesEditor columnId={column.id} tools={draft.tools} onChange={changeTools} uploads={uploads} />
        )}
      </div>
    </Modal>
  );
}
