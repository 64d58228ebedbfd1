import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { useSession } from '../auth/use-session.ts';
import { BrandLogo } from '../../shared/ui/BrandLogo.tsx';
import { FormAlert } from '../../shared/ui/FormAlert.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { conversationKeyOf, senderOf, useCustomerSetup } from './customer-setup.ts';
import { CustomerSetupPanel } from './CustomerSetupPanel.tsx';
import { PhoneComposer } from './PhoneComposer.tsx';
import { PhoneMessageBubble } from './PhoneMessageBubble.tsx';
import { phoneMessagePreview, quotedMessageOf } from './phone-message-content.ts';
import type { CustomerChangeInput, CustomerMessageInput, PhoneMessage, SandboxApp } from '@embudo/contracts/http/sandbox-phone';
import { sandboxPhoneApi } from './sandbox-phone.api.ts';

/** The fake keeps no push channel for the phone: a one-second poll shows ticks moving. */
export const CONVERSATION_POLL_MS = 1000;

function initialsOf(name: string) {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return (words.length > 1 ? `${words[0]![0]}${words[1]![0]}` : name.slice(0, 2)).toUpperCase() || '?';
}

export const SIGN_IN_FOR_SANDBOX = 'Inicia sesión en Embudo en este navegador para usar el teléfono de prueba de tu empresa.';

function isSandboxApp(answer: unknown): answer is SandboxApp {
  return answer !== null && typeof answer === 'object' && 'appName' in answer;
}

/** Who a quote names, as the customer's WhatsApp does: "Tú" for one's own messages. */
function quoteAuthor(quoted: PhoneMessage, company: SandboxApp, customerPhone: string) {
  if (quoted.direction === 'to_customer') return company.label ?? company.appName;
  return quoted.participant && quoted.participant.phone !== customerPhone ? (quoted.participant.name ?? quoted.participant.phone) : 'Tú';
}

/**
 * Where a signed-in member plays a WhatsApp customer of their own company (the session this browser
 * holds), through the in-process fake Gupshup.
 */
export function SandboxPhonePage() {
  const queryClient = useQueryClient();
  // The CRM's own session in this browser: the company is always the signed-in one.
  const { session } = useSession();
  const { setup, update } = useCustomerSetup();
  const [error, setError] = useState<string | null>(null);
  const chatRef = useRef<HTMLDivElement>(null);

  const companyQuery = useQuery({
    queryKey: ['sandbox-phone', 'company', session?.tenant.slug],
    queryFn: sandboxPhoneApi.company,
    enabled: session !== null,
    retry: false,
  });
  // Any other server mode answers with the app's page instead of the company.
  const sandboxOff = companyQuery.isSuccess && !isSandboxApp(companyQuery.data);
  const company = isSandboxApp(companyQuery.data) ? companyQuery.data : undefined;

  const conversationKey = company ? conversationKeyOf(setup) : null;
  const conversationQueryKey = ['sandbox-phone', 'conversation', company?.appName, conversationKey];
  const conversation = useQuery({
    queryKey: conversationQueryKey,
    queryFn: () => sandboxPhoneApi.conversation(conversationKey ?? ''),
    enabled: conversationKey !== null,
    refetchInterval: CONVERSATION_POLL_MS,
    retry: false,
  });
  const messages = conversationKey !== null ? (conversation.data ?? []) : [];

  const send = useMutation({
    mutationFn: (message: CustomerMessageInput) => sandboxPhoneApi.send({ ...senderOf(setup), message }),
    onMutate: () => setError(null),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationQueryKey }),
    onError: (failure) => setError(errorMessageOr(failure, 'No se pudo enviar el mensaje.')),
  });

  const change = useMutation({
    mutationFn: (customerChange: CustomerChangeInput) => sandboxPhoneApi.change({ ...senderOf(setup), change: customerChange }),
    onMutate: () => setError(null),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationQueryKey }),
    onError: (failure) => setError(errorMessageOr(failure, 'No se pudo cambiar el mensaje.')),
  });

  // Follow the conversation as it grows, like a phone does.
  const lastMessageId = messages.at(-1)?.id;
  useEffect(() => {
    const chat = chatRef.current;
    if (chat) chat.scrollTop = chat.scrollHeight;
  }, [lastMessageId]);

  useEffect(() => setError(null), [conversationKey]);

  const title = company ? (setup.inGroup ? setup.groupName.trim() || `Grupo ${setup.groupId}` : (company.label ?? company.appName)) : 'Sin empresa';
  const subtitle = company ? (setup.inGroup ? `Con ${company.label ?? company.appName}` : `+${company.sourceNumber}`) : 'Inicia sesión para chatear';

  return (
    <div className="min-h-screen bg-slate-100">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
          <Link to="/" aria-label="Inicio">
            <BrandLogo />
          </Link>
          <span className="rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-800">Modo sandbox</span>
        </div>
      </header>

      <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <div className="mb-8 max-w-2xl">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Teléfono de prueba (sandbox)</h1>
          <p className="mt-2 text-sm text-slate-600">
            Juega el papel de un cliente de WhatsApp. Lo que escribes llega a la empresa por el mismo webhook que usa Gupshup, y sus respuestas aparecen aquí
            con sus marcas de entrega. Desde las opciones de cada mensaje puedes reaccionar, y editar o eliminar los tuyos.
          </p>
        </div>

        <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,22rem)_1fr]">
          <section aria-labelledby="sandbox-setup-title" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            <h2 id="sandbox-setup-title" className="mb-5 text-base font-semibold text-slate-900">
              Cliente
            </h2>
            {session === null ? (
              <div data-testid="sandbox-sign-in" className="space-y-3 rounded-lg bg-amber-50 p-4 text-sm text-amber-900">
                <p>{SIGN_IN_FOR_SANDBOX}</p>
                <Link to="/login" className="inline-block font-semibold text-emerald-700 underline underline-offset-2 hover:text-emerald-800">
                  Iniciar sesión
                </Link>
              </div>
            ) : (
              <>
                {companyQuery.isError && <FormAlert message={errorMessageOr(companyQuery.error, 'No se pudo cargar tu empresa en el sandbox.')} />}
                {sandboxOff && <FormAlert message="El sandbox no está activo en este servidor." />}
                {company && (
                  <p data-testid="sandbox-company" className="mb-5 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
                    Escribes a <strong className="font-semibold text-slate-900">{company.label ?? company.appName}</strong> (+{company.sourceNumber}), la
                    empresa con la que iniciaste sesión.
                  </p>
                )}
                <CustomerSetupPanel setup={setup} onChange={update} />
              </>
            )}
          </section>

          <section aria-label="Teléfono" className="mx-auto w-full max-w-[26rem]">
            <div className="overflow-hidden rounded-[2.25rem] border-[10px] border-slate-900 bg-slate-900 shadow-2xl shadow-slate-900/30">
              <div className="flex items-center gap-3 bg-[#008069] px-4 py-3 text-white">
                <span className="grid size-10 shrink-0 place-items-center rounded-full bg-white/20 text-sm font-semibold" aria-hidden="true">
                  {initialsOf(title)}
                </span>
                <div className="min-w-0">
                  <p className="truncate font-semibold" data-testid="phone-chat-title">
                    {title}
                  </p>
                  <p className="truncate text-xs text-emerald-50/90">{subtitle}</p>
                </div>
                {conversation.isFetching && conversationKey && <Spinner className="ml-auto size-4 text-white/70" />}
              </div>

              <div
                ref={chatRef}
                data-testid="phone-chat"
                aria-live="polite"
                className="flex h-[32rem] flex-col gap-2 overflow-y-auto bg-[#efeae2] bg-[radial-gradient(rgba(0,0,0,0.035)_1px,transparent_1px)] [background-size:14px_14px] px-3 py-4"
              >
                {conversationKey === null ? (
                  <p className="m-auto max-w-60 rounded-lg bg-white/80 px-4 py-3 text-center text-sm text-slate-600 shadow-sm">
                    {session === null ? 'Inicia sesión para empezar.' : 'Escribe el teléfono del cliente para empezar.'}
                  </p>
                ) : conversation.isError ? (
                  <div className="m-auto">
                    <FormAlert message={errorMessageOr(conversation.error, 'No se pudo cargar la conversación.')} />
                  </div>
                ) : conversation.isPending ? (
                  <Spinner className="m-auto size-6 text-emerald-700" />
                ) : messages.length === 0 ? (
                  <p className="m-auto max-w-64 rounded-lg bg-[#ffeecd] px-4 py-3 text-center text-xs text-slate-700 shadow-sm">
                    Aún no hay mensajes. Escribe como cliente y la empresa lo recibirá en su embudo.
                  </p>
                ) : (
                  messages.map((message) => {
                    const quoted = company ? quotedMessageOf(message, messages) : undefined;
                    const quote = quoted && company ? { author: quoteAuthor(quoted, company, setup.phone), text: phoneMessagePreview(quoted) } : undefined;
                    return (
                      <PhoneMessageBubble
                        key={message.id}
                        message={message}
                        quote={quote}
                        onReply={(reply) => send.mutate(reply)}
                        replying={send.isPending}
                        onChange={(customerChange) => change.mutate(customerChange)}
                        // In a group the providers carry only reactions.
                        ownMessage={message.direction === 'from_customer' && !setup.inGroup}
                        changing={change.isPending}
                      />
                    );
                  })
                )}
              </div>

              {error && (
                <div className="bg-[#f0f2f5] px-3 pt-2">
                  <FormAlert message={error} />
                </div>
              )}
              <PhoneComposer disabled={conversationKey === null} sending={send.isPending} onSend={(message) => send.mutateAsync(message)} onError={setError} />
            </div>
          </section>
        </div>
      </main>
    </div>
  );
}
