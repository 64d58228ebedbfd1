import { useEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import type { BotConfigInput } from '@embudo/contracts/flows/flow';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { botsApi } from '../bots/bots.api.ts';
import { canSend, initialPlayground, playgroundReducer } from './playground-state.ts';

/** A chat with the bot as the editor has it now, saved or not (spec 02 §2 Bot editor, §4 Playground). */
export function PlaygroundModal({ botId, config, onClose }: { botId: string; config: () => BotConfigInput; onClose: () => void }) {
  const [state, dispatch] = useReducer(playgroundReducer, initialPlayground);
  const [draft, setDraft] = useState('');
  const endRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [state.messages.length, state.waiting]);

  const send = async (text: string) => {
    if (!canSend(state, text)) return;
    const message = text.trim();
    setDraft('');
    dispatch({ type: 'sent', text: message });
    try {
      const answer = await botsApi.simulate(botId, { message, sessionId: state.sessionId, botConfig: config() });
      dispatch({ type: 'replied', answer });
    } catch (error) {
      dispatch({ type: 'failed', error });
    }
  };

  const reset = async () => {
    const sessionId = state.sessionId;
    dispatch({ type: 'reset' });
    setDraft('');
    if (!sessionId) return;
    try {
      await botsApi.endSimulation(sessionId);
    } catch (error) {
      // A session the server already forgot changes nothing for the person testing.
      console.warn('No se pudo borrar la sesión de prueba', error);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(draft);
  };

  return (
    <Modal
      title="Playground"
      description="Prueba el flujo tal como está en el editor, aunque no lo hayas guardado."
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={() => void reset()}>
            Reiniciar Conversación
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Cerrar
          </Button>
        </>
      }
    >
      <div className="flex h-[26rem] flex-col">
        <ol aria-label="Conversación de prueba" className="flex-1 space-y-2 overflow-y-auto rounded-xl bg-[#efeae2] p-3">
          {state.messages.length === 0 && <li className="py-10 text-center text-sm text-slate-500">Escribe algo para empezar a conversar con el bot.</li>}
          {state.messages.map((message, index) => (
            <li key={index} className={`flex ${message.sender === 'user' ? 'justify-end' : 'justify-start'}`}>
              <p
                data-testid={message.sender === 'user' ? 'playground-user-message' : 'playground-bot-message'}
                className={`max-w-[80%] rounded-lg px-3 py-2 text-sm whitespace-pre-wrap shadow-sm ${message.sender === 'user' ? 'bg-[#d9fdd3] text-slate-900' : 'bg-white text-slate-900'}`}
              >
                {message.text}
              </p>
            </li>
          ))}
          {state.waiting && (
            <li className="flex justify-start">
              <p role="status" aria-label="El bot está escribiendo" className="flex gap-1 rounded-lg bg-white px-3 py-3 shadow-sm">
                {[0, 150, 300].map((delay) => (
                  <span key={delay} className="size-2 animate-bounce rounded-full bg-slate-400" style={{ animationDelay: `${delay}ms` }} />
                ))}
              </p>
            </li>
          )}
          <div ref={endRef} />
        </ol>
        {state.options.length > 0 && !state.waiting && (
          <div className="mt-2 flex flex-wrap gap-2" aria-label="Opciones del bot">
            {state.options.map((option) => (
              <Button key={option.id} variant="secondary" size="sm" onClick={() => void send(option.label)}>
                {option.label}
              </Button>
            ))}
          </div>
        )}
        <form onSubmit={submit} className="mt-3 flex gap-2">
          <input
            aria-label="Mensaje para el bot"
            className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100 disabled:bg-slate-50"
            placeholder="Escribe un mensaje..."
            value={draft}
            disabled={state.waiting}
            onChange={(event) => setDraft(event.target.value)}
          />
          <Button type="submit" disabled={!canSend(state, draft)}>
            Enviar
          </Button>
        </form>
      </div>
    </Modal>
  );
}
