import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  MEDIA_UPLOAD_INVALID_RESPONSE,
  OPERATOR_BLOCK_NOTICE,
  TEMPLATE_MEDIA_UNSUPPORTED,
  TEMPLATE_NAME_HINT,
  TEMPLATE_NAME_REQUIRED,
} from '@embudo/contracts/http/templates';
import { json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTemplate, installTemplatesApi } from './templates-test-fixtures.ts';
import { OPERATOR_BLOCK_EDIT_NOTE } from './RejectionNotice.tsx';

const SAVE = 'Guardar y Enviar a Revisión';
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const preview = () => within(screen.getByTestId('template-preview'));
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

async function openNewEditor(handlers: Parameters<typeof installTemplatesApi>[0] = {}) {
  const api = installTemplatesApi({ 'GET /t/acme/api/templates': () => json(200, []), ...handlers });
  const app = renderApp('/t/acme/templates/new');
  await screen.findByRole('heading', { level: 1, name: 'Nueva Plantilla' });
  return { api, app };
}

const pngFile = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'promo.png', { type: 'image/png' });

describe('template editor: the rules', () => {
  it('normalises the name as it is typed and shows the hint', async () => {
    await openNewEditor();
    type('Nombre de la plantilla', 'Promo Verano-2024!');
    expect(field('Nombre de la plantilla').value).toBe('promoverano2024');
    expect(screen.getByText(TEMPLATE_NAME_HINT)).toBeTruthy();
  });

  it("defaults to UTILITY in es and offers the spec's categories and languages", async () => {
    await openNewEditor();
    const category = field('Categoría') as unknown as HTMLSelectElement;
    const language = field('Idioma') as unknown as HTMLSelectElement;
    expect(category.value).toBe('UTILITY');
    expect([...category.options].map((option) => option.value)).toEqual(['UTILITY', 'MARKETING', 'AUTHENTICATION']);
    expect(language.value).toBe('es');
    expect([...language.options].map((option) => option.value)).toEqual(['es', 'en_US', 'pt_BR']);
  });

  it('switches the header: NONE removes it, another type starts a fresh one', async () => {
    await openNewEditor();
    const header = field('Tipo de encabezado') as unknown as HTMLSelectElement;
    expect(header.value).toBe('NONE');
    fireEvent.change(header, { target: { value: 'TEXT' } });
    type('Texto del encabezado', 'Oferta de verano');
    expect(preview().getByText('Oferta de verano')).toBeTruthy();
    fireEvent.change(header, { target: { value: 'IMAGE' } });
    expect(screen.queryByLabelText('Texto del encabezado')).toBeNull();
    expect(screen.getByLabelText('Archivo de ejemplo (imagen)')).toBeTruthy();
    expect(preview().getByTestId('preview-media-placeholder').textContent).toBe('Imagen');
    fireEvent.change(header, { target: { value: 'TEXT' } });
    expect(field('Texto del encabezado').value).toBe('');
    fireEvent.change(header, { target: { value: 'NONE' } });
    expect(screen.queryByLabelText('Texto del encabezado')).toBeNull();
    expect(preview().queryByText('Oferta de verano')).toBeNull();
  });

  it('adds up to 3 buttons (the add controls then disappear), URL buttons start with this site', async () => {
    await openNewEditor();
    fireEvent.click(screen.getByRole('button', { name: '+ Respuesta rápida' }));
    fireEvent.click(screen.getByRole('button', { name: '+ Enlace (URL)' }));
    expect(field('URL del botón 2').value).toBe(`https://${window.location.host}/`);
    fireEvent.click(screen.getByRole('button', { name: '+ Llamar (teléfono)' }));
    expect(screen.getAllByTestId('template-button-row').map((row) => row.getAttribute('data-button-type'))).toEqual(['QUICK_REPLY', 'URL', 'PHONE_NUMBER']);
    expect(screen.queryByTestId('add-button-controls')).toBeNull();
    expect(screen.queryByRole('button', { name: '+ Respuesta rápida' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Quitar botón 3' }));
    // Back under 3: every kind is offered again.
    expect(
      within(screen.getByTestId('add-button-controls'))
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['+ Respuesta rápida', '+ Enlace (URL)', '+ Llamar (teléfono)']);
  });

  it('shows the template live in the phone preview', async () => {
    await openNewEditor();
    type('Cuerpo del mensaje', 'Hola {{1}}, tu pedido salió.');
    type('Pie de página (opcional)', 'Tienda Núñez');
    fireEvent.click(screen.getByRole('button', { name: '+ Respuesta rápida' }));
    type('Texto del botón 1', 'Ver pedido');
    expect(preview().getByTestId('preview-body').textContent).toBe('Hola {{1}}, tu pedido salió.');
    expect(preview().getByTestId('preview-footer').textContent).toBe('Tienda Núñez');
    expect(preview().getByRole('list', { name: 'Botones de la plantilla' }).textContent).toContain('Ver pedido');
    fireEvent.click(screen.getByRole('button', { name: '+ Agregar variable' }));
    expect(preview().getByTestId('preview-body').textContent).toBe('Hola {{1}}, tu pedido salió.{{2}}');
  });

  it('refuses to save what the server would refuse, field by field, without calling it', async () => {
    const { api } = await openNewEditor();
    fireEvent.click(screen.getByRole('button', { name: '+ Enlace (URL)' }));
    type('URL del botón 1', 'tienda');
    fireEvent.click(screen.getByRole('button', { name: SAVE }));
    expect(await screen.findByText(TEMPLATE_NAME_REQUIRED)).toBeTruthy();
    expect(screen.getByText('El cuerpo del mensaje es requerido.')).toBeTruthy();
    expect(screen.getByText('El texto del botón es requerido.')).toBeTruthy();
    expect(screen.getByText('La URL del botón debe empezar con http:// o https://.')).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/templates')).toHaveLength(0);
  });
});

describe('template editor: saving and media samples', () => {
  it('creates the template, says so and goes back to the list', async () => {
    const { api, app } = await openNewEditor({ 'POST /t/acme/api/templates': () => json(201, aTemplate({ status: 'PENDING' })) });
    type('Nombre de la plantilla', 'Aviso Pedido');
    fireEvent.change(field('Categoría'), { target: { value: 'MARKETING' } });
    fireEvent.change(field('Idioma'), { target: { value: 'pt_BR' } });
    type('Cuerpo del mensaje', 'Hola {{1}}');
    fireEvent.click(screen.getByRole('button', { name: '+ Respuesta rápida' }));
    type('Texto del botón 1', 'Sí');
    fireEvent.click(screen.getByRole('button', { name: SAVE }));
    expect(await screen.findByText('Template created and submitted.')).toBeTruthy();
    await waitFor(() => expect(app.pathname()).toBe('/t/acme/templates'));
    expect(api.callsTo('POST', '/t/acme/api/templates')[0]!.body).toEqual({
      name: 'avisopedido',
      category: 'MARKETING',
      language_code: 'pt_BR',
      header: null,
      body_text: 'Hola {{1}}',
      footer: null,
      buttons: [{ type: 'QUICK_REPLY', text: 'Sí' }],
    });
  });

  it("shows the server's reason, or Failed to save template., when the save fails", async () => {
    const { api } = await openNewEditor({
      'POST /t/acme/api/templates': () => json(409, { code: 'CONFLICT', message: 'Ya existe una plantilla llamada aviso en el idioma es.' }),
    });
    type('Nombre de la plantilla', 'aviso');
    type('Cuerpo del mensaje', 'Hola');
    fireEvent.click(screen.getByRole('button', { name: SAVE }));
    expect(await screen.findByText('Ya existe una plantilla llamada aviso en el idioma es.')).toBeTruthy();
    api.setHandler('POST /t/acme/api/templates', () => new Response('<html>', { status: 500 }));
    fireEvent.click(screen.getByRole('button', { name: SAVE }));
    expect(await screen.findByText('Failed to save template.')).toBeTruthy();
  });

  it('uploads a media sample (save disabled meanwhile), keeps its handle and shows it in the preview', async () => {
    let answer!: (response: Response) => void;
    const { api } = await openNewEditor({
      'POST /t/acme/api/templates/media': () => new Promise<Response>((resolve) => (answer = resolve)),
      'POST /t/acme/api/templates': () => json(201, aTemplate()),
    });
    type('Nombre de la plantilla', 'promo');
    type('Cuerpo del mensaje', 'Mira la promo');
    fireEvent.change(field('Tipo de encabezado'), { target: { value: 'IMAGE' } });
    fireEvent.change(field('Archivo de ejemplo (imagen)'), { target: { files: [pngFile()] } });
    await waitFor(() => expect((screen.getByRole('button', { name: SAVE }) as HTMLButtonElement).disabled).toBe(true));
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    expect(api.callsTo('POST', '/t/acme/api/templates/media')[0]!.body).toBeInstanceOf(FormData);
    answer(json(200, { handleId: '4::aW1hZ2U=:ARb1', headerType: 'IMAGE', url: '/media/t1/promo.png' }));
    expect(await screen.findByText('Media sample uploaded successfully.')).toBeTruthy();
    expect((screen.getByRole('button', { name: SAVE }) as HTMLButtonElement).disabled).toBe(false);
    expect(preview().getByRole('img', { name: 'Encabezado de la plantilla' }).getAttribute('src')).toBe('/media/t1/promo.png');
    fireEvent.click(screen.getByRole('button', { name: SAVE }));
    await waitFor(() => expect(api.callsTo('POST', '/t/acme/api/templates')).toHaveLength(1));
    expect((api.callsTo('POST', '/t/acme/api/templates')[0]!.body as { header: unknown }).header).toEqual({
      type: 'IMAGE',
      example_handle: '4::aW1hZ2U=:ARb1',
      media_url: '/media/t1/promo.png',
    });
  });

  it('says Invalid response from media upload API. when the answer has no handleId, and Failed to upload media. on failure', async () => {
    const { api } = await openNewEditor({ 'POST /t/acme/api/templates/media': () => json(200, { status: 'ok' }) });
    fireEvent.change(field('Tipo de encabezado'), { target: { value: 'IMAGE' } });
    fireEvent.change(field('Archivo de ejemplo (imagen)'), { target: { files: [pngFile()] } });
    expect(await screen.findByText(MEDIA_UPLOAD_INVALID_RESPONSE)).toBeTruthy();
    expect(screen.getByTestId('media-status').textContent).not.toBe('Archivo de ejemplo cargado.');

    api.setHandler('POST /t/acme/api/templates/media', () => new Response('', { status: 500 }));
    fireEvent.change(field('Archivo de ejemplo (imagen)'), { target: { files: [pngFile()] } });
    expect(await screen.findByText('Failed to upload media.')).toBeTruthy();
  });

  it('refuses a file of the wrong kind for the header without uploading it', async () => {
    const { api } = await openNewEditor();
    fireEvent.change(field('Tipo de encabezado'), { target: { value: 'VIDEO' } });
    fireEvent.change(field('Archivo de ejemplo (video)'), { target: { files: [pngFile()] } });
    expect(await screen.findByText(TEMPLATE_MEDIA_UNSUPPORTED)).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/templates/media')).toHaveLength(0);
  });

  it('edits an existing template and re-submits it', async () => {
    const existing = aTemplate({
      id: 'tpl-9',
      name: 'recordatorio',
      footer: 'Gracias',
      buttons: [{ type: 'URL', text: 'Ver', url: 'https://tienda.example/' }],
      status: 'REJECTED',
    });
    const api = installTemplatesApi({
      'GET /t/acme/api/templates': () => json(200, [existing]),
      'GET /t/acme/api/templates/tpl-9': () => json(200, existing),
      'PUT /t/acme/api/templates/tpl-9': () => json(200, { ...existing, status: 'PENDING' }),
    });
    const app = renderApp('/t/acme/templates/tpl-9');
    await screen.findByRole('heading', { level: 1, name: 'Editar Plantilla' });
    expect(((await screen.findByLabelText('Nombre de la plantilla')) as HTMLInputElement).value).toBe('recordatorio');
    expect(field('URL del botón 1').value).toBe('https://tienda.example/');
    type('Cuerpo del mensaje', 'Nuevo texto {{1}}');
    fireEvent.click(screen.getByRole('button', { name: SAVE }));
    expect(await screen.findByText('Template updated and re-submitted.')).toBeTruthy();
    await waitFor(() => expect(app.pathname()).toBe('/t/acme/templates'));
    expect(api.callsTo('PUT', '/t/acme/api/templates/tpl-9')[0]!.body).toMatchObject({
      name: 'recordatorio',
      body_text: 'Nuevo texto {{1}}',
      footer: 'Gracias',
    });
  });

  it("tells the editor of a blocked template the operator's reason and that saving does not lift the block", async () => {
    const blocked = aTemplate({ id: 'tpl-7', name: 'apuestas', status: 'REJECTED', rejection_reason: 'Promociona apuestas.', blocked_by_operator: true });
    installTemplatesApi({ 'GET /t/acme/api/templates/tpl-7': () => json(200, blocked) });
    renderApp('/t/acme/templates/tpl-7');
    const notice = await screen.findByTestId('operator-block');
    expect(notice.textContent).toContain(OPERATOR_BLOCK_NOTICE);
    expect(notice.textContent).toContain('Motivo del rechazo: Promociona apuestas.');
    expect(notice.textContent).toContain(OPERATOR_BLOCK_EDIT_NOTE);
    expect(screen.getByRole('button', { name: SAVE })).toBeTruthy();
  });

  it('says Template not found. for a template that is not there', async () => {
    installTemplatesApi({ 'GET /t/acme/api/templates/nope': () => json(404, { code: 'NOT_FOUND', message: 'Template not found.' }) });
    renderApp('/t/acme/templates/nope');
    await waitFor(() => expect(screen.getAllByText('Template not found.')).toHaveLength(2));
    expect(screen.queryByRole('button', { name: SAVE })).toBeNull();
  });

  it('says Template not found. for an address that cannot name a template', async () => {
    installTemplatesApi({ 'GET /t/acme/api/templates/abc': () => json(400, { code: 'BAD_REQUEST', message: 'Plantilla inválida.' }) });
    renderApp('/t/acme/templates/abc');
    await waitFor(() => expect(screen.getAllByText('Template not found.')).toHaveLength(2));
    expect(screen.queryByText('Plantilla inválida.')).toBeNull();
    expect(screen.queryByRole('button', { name: SAVE })).toBeNull();
  });
});
