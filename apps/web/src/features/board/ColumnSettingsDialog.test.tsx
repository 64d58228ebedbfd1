import { AI_FALLBACK_REPLY_DEFAULT } from '@embudo/contracts/http/funnels';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aBoard, createEmittingSocket, installBoardApi } from '../chat/chat-test-fixtures.ts';
import { standInSockets } from '../../test/fake-socket.ts';

standInSockets(createEmittingSocket);

const template = (id: string, name: string, status = 'APPROVED') => ({
  id,
  name,
  category: 'UTILITY',
  body_text: `Hola {{1}}, ${name}`,
  status,
  variables_schema: { 1: { type: 'text', label: 'Variable 1' } },
});

async function openColumnMenuItem(item: 'Configuración de columna' | 'Configurar Bot Gemini') {
  renderApp('/t/acme');
  const [column] = await screen.findAllByTestId('board-column', {}, { timeout: 5000 });
  fireEvent.click(within(column!).getByRole('button', { name: 'Opciones de la columna' }));
  fireEvent.click(screen.getByRole('menuitem', { name: item }));
  return screen.findByRole('dialog');
}

describe('column settings: Respuestas Rápidas', () => {
  it('lists, creates, edits and deletes quick replies with the spec messages', async () => {
    let replies = [{ id: 'q1', columnId: 'col1', title: 'Horario', text: 'Abrimos de 9 a 18 h.' }];
    const api = installBoardApi(aBoard(), [], {
      'GET /t/acme/api/columns/col1/quick-replies': () => json(200, replies),
      'POST /t/acme/api/quick-replies': ({ body }) => {
        const created = { id: 'q2', ...(body as { columnId: string; title: string; text: string }) };
        replies = [...replies, created];
        return json(201, created);
      },
      'PUT /t/acme/api/quick-replies/q1': ({ body }) => {
        replies = replies.map((reply) => (reply.id === 'q1' ? { ...reply, ...(body as object) } : reply));
        return json(200, replies[0]);
      },
      'DELETE /t/acme/api/quick-replies/q1': () => {
        replies = replies.filter((reply) => reply.id !== 'q1');
        return new Response(null, { status: 204 });
      },
    });
    const dialog = await openColumnMenuItem('Configuración de columna');
    expect(within(dialog).getByRole('tab', { name: 'Respuestas Rápidas' }).getAttribute('aria-selected')).toBe('true');
    expect(within(dialog).getByRole('tab', { name: 'Plantillas' })).toBeTruthy();
    expect(within(dialog).getByRole('tab', { name: 'Asistente' })).toBeTruthy();
    expect(await within(dialog).findByText('Horario')).toBeTruthy();

    // Title and text are required: nothing is sent without both.
    fireEvent.change(within(dialog).getByLabelText('Título'), { target: { value: 'Precios' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('El título y el texto son requeridos.');
    expect(api.callsTo('POST', '/t/acme/api/quick-replies')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Texto'), { target: { value: ' Te envío la lista. ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Respuesta rápida guardada.')).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/quick-replies')[0]!.body).toEqual({ columnId: 'col1', title: 'Precios', text: 'Te envío la lista.' });
    expect(await within(dialog).findByText('Precios')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Editar Horario' }));
    fireEvent.change(within(dialog).getByLabelText('Título'), { target: { value: 'Horario de atención' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Horario de atención')).toBeTruthy();
    expect(api.callsTo('PUT', '/t/acme/api/quick-replies/q1')[0]!.body).toEqual({ title: 'Horario de atención', text: 'Abrimos de 9 a 18 h.' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Eliminar Horario de atención' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByText('Respuesta rápida eliminada.')).toBeTruthy();
    await waitFor(() => expect(within(dialog).queryByText('Horario de atención')).toBeNull());
    // A long walk through the dialog: 16 s beside the other suites on a loaded 2-core machine.
  }, 40_000);

  it('shows the spec fallbacks when loading, saving or deleting fails', async () => {
    installBoardApi(aBoard(), [], {
      'GET /t/acme/api/columns/col1/quick-replies': () => new Response('', { status: 500 }),
      'POST /t/acme/api/quick-replies': () => new Response('', { status: 500 }),
    });
    const dialog = await openColumnMenuItem('Configuración de columna');
    expect(await screen.findByText('Error al cargar respuestas rápidas')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Título'), { target: { value: 'x' } });
    fireEvent.change(within(dialog).getByLabelText('Texto'), { target: { value: 'y' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Error al guardar.')).toBeTruthy();
  });
});

describe('column settings: Plantillas', () => {
  it('ticks the assigned templates and saves the new assignment', async () => {
    const api = installBoardApi(aBoard(), [], {
      'GET /t/acme/api/templates?status=': () => json(200, [template('t1', 'bienvenida'), template('t2', 'seguimiento', 'PENDING')]),
      'GET /t/acme/api/columns/col1/assigned-templates': () => json(200, { templateIds: ['t1'] }),
      'PUT /t/acme/api/columns/col1/assigned-templates': ({ body }) => json(200, body),
    });
    const dialog = await openColumnMenuItem('Configuración de columna');
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Plantillas' }));
    const bienvenida = (await within(dialog).findByRole('checkbox', { name: /bienvenida/ })) as HTMLInputElement;
    const seguimiento = within(dialog).getByRole('checkbox', { name: /seguimiento/ }) as HTMLInputElement;
    expect(bienvenida.checked).toBe(true);
    expect(seguimiento.checked).toBe(false);
    fireEvent.click(seguimiento);
    fireEvent.click(bienvenida);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar asignación' }));
    expect(await screen.findByText('Asignación de plantillas actualizada.')).toBeTruthy();
    expect(api.callsTo('PUT', '/t/acme/api/columns/col1/assigned-templates')[0]!.body).toEqual({ templateIds: ['t2'] });
  });

  it('says when the assigned templates cannot be loaded', async () => {
    installBoardApi(aBoard(), [], {
      'GET /t/acme/api/templates?status=': () => json(200, []),
      'GET /t/acme/api/columns/col1/assigned-templates': () => new Response('', { status: 500 }),
    });
    const dialog = await openColumnMenuItem('Configuración de columna');
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Plantillas' }));
    expect(await screen.findByText('Error al cargar plantillas asignadas.')).toBeTruthy();
  });
});

describe('column assistant', () => {
  it('uploads a tool file and saves isEnabled, systemPrompt and tools through PUT /api/columns/{id}', async () => {
    const api = installBoardApi(aBoard(), [], {
      'GET /t/acme/api/columns/col1/quick-replies': () => json(200, []),
      'POST /t/acme/api/columns/col1/tools/upload': () =>
        json(201, { type: 'file_upload', id: 'file-1', fileName: 'precios.csv', filePath: '/media/t/f.csv', purpose: '' }),
      'PUT /t/acme/api/columns/col1': ({ body }) =>
        json(200, { id: 'col1', title: 'Nuevos', funnelId: 'f1', color: 'blue', assistant_bot_id: null, ...(body as object) }),
    });
    vi.stubGlobal('crypto', { ...globalThis.crypto, randomUUID: () => 'tool-1' });
    const dialog = await openColumnMenuItem('Configuración de columna');
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Asistente' }));
    // Which chats it answers (issue 44): those that come in, however they come, unless a person took them.
    expect(within(dialog).getByTestId('assistant-scope').textContent).toContain(
      'Responde los chats que entran a esta columna (por el menú, al moverlos o al crearlos), salvo los que alguien del equipo tomó.',
    );
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Asistente activo' }));
    fireEvent.change(within(dialog).getByLabelText('Instrucciones del asistente'), { target: { value: 'Eres el asistente de ventas.' } });
    fireEvent.change(within(dialog).getByTestId('tool-file-input'), {
      target: { files: [new File(['producto,precio\n'], 'precios.csv', { type: 'text/csv' })] },
    });
    expect(await screen.findByText('Archivo de herramienta subido exitosamente.')).toBeTruthy();
    const form = api.callsTo('POST', '/t/acme/api/columns/col1/tools/upload')[0]!.body as FormData;
    expect((form.get('tool_file') as File).name).toBe('precios.csv');
    fireEvent.change(within(dialog).getByLabelText('Propósito de precios.csv'), { target: { value: 'Lista de precios' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '+ Agregar webhook' }));
    fireEvent.change(within(dialog).getByLabelText('Nombre del webhook 1'), { target: { value: 'Consultar pedido' } });
    fireEvent.change(within(dialog).getByLabelText('Método del webhook 1'), { target: { value: 'GET' } });
    fireEvent.change(within(dialog).getByLabelText('URL del webhook 1'), { target: { value: 'https://tienda.example/pedidos' } });
    fireEvent.change(within(dialog).getByLabelText('Propósito del webhook 1'), { target: { value: 'Estado de un pedido' } });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar asistente' }));
    expect(await screen.findByText('Asistente de columna actualizado.')).toBeTruthy();
    expect(api.callsTo('PUT', '/t/acme/api/columns/col1')[0]!.body).toEqual({
      gemini_config: {
        isEnabled: true,
        systemPrompt: 'Eres el asistente de ventas.',
        tools: [
          { type: 'file_upload', id: 'file-1', fileName: 'precios.csv', filePath: '/media/t/f.csv', purpose: 'Lista de precios' },
          { type: 'webhook', id: 'tool-1', label: 'Consultar pedido', method: 'GET', url: 'https://tienda.example/pedidos', purpose: 'Estado de un pedido' },
        ],
        quietSeconds: 4,
        pauseOnHumanReply: true,
        fallbackReply: AI_FALLBACK_REPLY_DEFAULT,
      },
    });
  });

  it('lists every file of uploads that overlap, holds the save until they finish, and says why one was refused', async () => {
    // Each upload answers when the test says, so the second starts while the first is still on its way.
    const answers = new Map<string, (response: Response) => void>();
    const api = installBoardApi(aBoard(), [], {
      'GET /t/acme/api/columns/col1/quick-replies': () => json(200, []),
      'POST /t/acme/api/columns/col1/tools/upload': ({ body }) =>
        new Promise<Response>((resolve) => answers.set(((body as FormData).get('tool_file') as File).name, resolve)),
      'PUT /t/acme/api/columns/col1': ({ body }) =>
        json(200, { id: 'col1', title: 'Nuevos', funnelId: 'f1', color: 'blue', assistant_bot_id: null, ...(body as object) }),
    });
    const kept = (id: string, fileName: string) => json(201, { type: 'file_upload', id, fileName, filePath: `/media/t/${id}.txt`, purpose: '' });
    const dialog = await openColumnMenuItem('Configuración de columna');
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Asistente' }));
    const choose = (...names: string[]) =>
      fireEvent.change(within(dialog).getByTestId('tool-file-input'), { target: { files: names.map((name) => new File(['texto'], name)) } });
    choose('precios.txt');
    choose('envios.txt');
    await waitFor(() => expect(answers.size).toBe(2));
    expect(within(dialog).getByTestId('tool-file-uploading').textContent).toBe('Subiendo 2 archivos…');
    const save = within(dialog).getByRole('button', { name: 'Guardar asistente' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    // The second answers first; the first one's answer must not replace it.
    act(() => answers.get('envios.txt')!(kept('f-envios', 'envios.txt')));
    expect(await within(dialog).findByText('envios.txt')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Propósito de envios.txt'), { target: { value: 'Costos de envío' } });
    act(() => answers.get('precios.txt')!(kept('f-precios', 'precios.txt')));
    expect(await within(dialog).findByText('precios.txt')).toBeTruthy();
    await waitFor(() => expect(save.disabled).toBe(false));
    expect(
      within(dialog)
        .getAllByTestId('tool-file')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('envios.txt'), expect.stringContaining('precios.txt')]);

    choose('programa.exe');
    await waitFor(() => expect(answers.has('programa.exe')).toBe(true));
    act(() => answers.get('programa.exe')!(json(400, { code: 'BAD_REQUEST', message: 'Sube un archivo PDF, DOCX, XLSX, CSV, TXT, JSON o MD.' })));
    expect((await within(dialog).findByTestId('tool-file-error')).textContent).toBe(
      'No se pudo usar «programa.exe»: Sube un archivo PDF, DOCX, XLSX, CSV, TXT, JSON o MD.',
    );
    expect(within(dialog).getAllByTestId('tool-file')).toHaveLength(2);

    fireEvent.click(save);
    expect(await screen.findByText('Asistente de columna actualizado.')).toBeTruthy();
    const sent = api.callsTo('PUT', '/t/acme/api/columns/col1')[0]!.body as { gemini_config: { tools: unknown[] } };
    expect(sent.gemini_config.tools).toEqual([
      { type: 'file_upload', id: 'f-envios', fileName: 'envios.txt', filePath: '/media/t/f-envios.txt', purpose: 'Costos de envío' },
      { type: 'file_upload', id: 'f-precios', fileName: 'precios.txt', filePath: '/media/t/f-precios.txt', purpose: '' },
    ]);
  });

  it('names the model that answers and saves the quiet window, the pause on a team reply and the fallback reply', async () => {
    const api = installBoardApi(aBoard(), [], {
      'GET /t/acme/api/columns/col1/quick-replies': () => json(200, []),
      'GET /t/acme/api/ai/status': () => json(200, { provider: 'sandbox', label: 'IA de prueba' }),
      'PUT /t/acme/api/columns/col1': ({ body }) =>
        json(200, { id: 'col1', title: 'Nuevos', funnelId: 'f1', color: 'blue', assistant_bot_id: null, ...(body as object) }),
    });
    const dialog = await openColumnMenuItem('Configuración de columna');
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Asistente' }));
    expect((await within(dialog).findByTestId('ai-model-label')).textContent).toBe('Modelo: IA de prueba');
    fireEvent.change(within(dialog).getByLabelText('Segundos de espera antes de responder'), { target: { value: '90' } });
    expect((within(dialog).getByLabelText('Segundos de espera antes de responder') as HTMLInputElement).value).toBe('60');
    fireEvent.change(within(dialog).getByLabelText('Segundos de espera antes de responder'), { target: { value: '2' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Pausar la IA cuando alguien del equipo responde/ }));
    const fallback = within(dialog).getByLabelText('Respuesta cuando la IA no puede responder') as HTMLInputElement;
    expect(fallback.value).toBe(AI_FALLBACK_REPLY_DEFAULT);
    fireEvent.change(fallback, { target: { value: 'Un momento, lo reviso con el equipo.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar asistente' }));
    expect(await screen.findByText('Asistente de columna actualizado.')).toBeTruthy();
    expect(api.callsTo('PUT', '/t/acme/api/columns/col1')[0]!.body).toMatchObject({
      gemini_config: { quietSeconds: 2, pauseOnHumanReply: false, fallbackReply: 'Un momento, lo reviso con el equipo.' },
    });
  });

  it('says when no model is configured', async () => {
    installBoardApi(aBoard(), [], {
      'GET /t/acme/api/columns/col1/quick-replies': () => json(200, []),
      'GET /t/acme/api/ai/status': () => json(200, { provider: null, label: null }),
    });
    const dialog = await openColumnMenuItem('Configuración de columna');
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Asistente' }));
    expect((await within(dialog).findByTestId('ai-model-label')).textContent).toBe(
      'No hay un modelo de IA configurado: el asistente dejará una nota en lugar de responder.',
    );
  });

  it('says when a tool file is refused, and reverts a bot choice the server refuses', async () => {
    installBoardApi(aBoard(), [], {
      'POST /t/acme/api/columns/col1/tools/upload': () => json(400, { code: 'BAD_REQUEST', message: 'Sube un archivo PDF, DOCX, XLSX, CSV, TXT, JSON o MD.' }),
      'GET /t/acme/api/bots': () => json(200, [{ id: 'b1', name: 'Agenda' }]),
      'PUT /t/acme/api/columns/col1': () => new Response('', { status: 500 }),
    });
    const dialog = await openColumnMenuItem('Configurar Bot Gemini');
    expect((within(dialog).getByRole('tab', { name: 'Flujo (Próximamente)' }) as HTMLButtonElement).disabled).toBe(true);
    const bot = within(dialog).getByLabelText('Bot de la columna') as HTMLSelectElement;
    await within(dialog).findByRole('option', { name: 'Agenda' });
    fireEvent.change(bot, { target: { value: 'b1' } });
    expect(await screen.findByText('Error al actualizar.')).toBeTruthy();
    expect(bot.value).toBe('');

    fireEvent.click(within(dialog).getByRole('tab', { name: 'Herramientas' }));
    fireEvent.change(within(dialog).getByTestId('tool-file-input'), { target: { files: [new File(['MZ'], 'x.exe')] } });
    expect(await screen.findByText('Error al subir el archivo.')).toBeTruthy();
    expect(within(dialog).getByTestId('tool-file-error').textContent).toBe('No se pudo usar «x.exe»: Sube un archivo PDF, DOCX, XLSX, CSV, TXT, JSON o MD.');
  });

  it("shows where each knowledge file's indexing stands, asking again while one is indexing", async () => {
    const board = aBoard();
    const tool = (id: string, fileName: string) => ({ type: 'file_upload', id, fileName, filePath: `/media/t/${id}.txt`, purpose: '' });
    board.columns[0]!.gemini_config = {
      isEnabled: true,
      systemPrompt: '',
      tools: [tool('a', 'manual.txt'), tool('b', 'precios.txt'), tool('c', 'horario.txt')],
      quietSeconds: 4,
      pauseOnHumanReply: true,
    } as never;
    let asked = 0;
    installBoardApi(board, [], {
      'GET /t/acme/api/columns/col1/quick-replies': () => json(200, []),
      'GET /t/acme/api/columns/col1/tools/files': () => {
        asked++;
        return json(200, [
          { filePath: '/media/t/a.txt', fileName: 'manual.txt', state: asked === 1 ? 'indexing' : 'indexed', passages: 12 },
          { filePath: '/media/t/b.txt', fileName: 'precios.txt', state: 'indexed', passages: 1 },
          {
            filePath: '/media/t/c.txt',
            fileName: 'horario.txt',
            state: 'error',
            passages: 3,
            error: 'No se pudieron calcular los vectores del archivo (cuota).',
          },
        ]);
      },
    });
    const dialog = await openColumnMenuItem('Configuración de columna');
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Asistente' }));
    const stateOf = (fileName: string) =>
      within(
        within(dialog)
          .getAllByTestId('tool-file')
          .find((item) => item.textContent?.includes(fileName))!,
      ).queryByTestId('tool-file-state')?.textContent;
    await waitFor(() => expect(stateOf('manual.txt')).toBe('Indexando… · 12 pasajes'));
    expect(stateOf('precios.txt')).toBe('Indexado · 1 pasaje');
    expect(stateOf('horario.txt')).toBe('Error al indexar: No se pudieron calcular los vectores del archivo (cuota).');
    await waitFor(() => expect(stateOf('manual.txt')).toBe('Indexado · 12 pasajes'), { timeout: 6000 });
  });
});
