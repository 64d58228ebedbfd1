import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import ExcelJS from 'exceljs';
import { describe, expect, it, vi } from 'vitest';
import {
  BULK_MAX_ROWS,
  BULK_NO_DATA_ROWS,
  BULK_REQUIRED_FIELDS,
  BULK_SEND_QUEUED,
  BULK_TOO_MANY_ROWS,
  EXCEL_FILES_ONLY,
  pickPhoneColumn,
} from '@embudo/contracts/http/bulk-sends';
import { json, type FakeCall } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aBoard, createEmittingSocket, installBoardApi } from '../chat/chat-test-fixtures.ts';
import { aTemplate } from '../templates/templates-test-fixtures.ts';
import { START_FAILED } from './BulkSendWizard.tsx';
import { buildSampleWorkbook, readExcelSummary } from './excel-workbook.ts';
import { standInSockets } from '../../test/fake-socket.ts';

standInSockets(createEmittingSocket);

const TEMPLATES = 'GET /t/acme/api/templates?status=APPROVED';
const CREATE = 'POST /t/acme/api/funnels/f1/batches';
const PEDIDO = aTemplate({
  id: 'tpl-1',
  name: 'aviso_pedido',
  body_text: 'Hola {{1}}, tu pedido {{2}} está listo.',
  variables_schema: { 1: { type: 'text', label: 'Variable 1' }, 2: { type: 'text', label: 'Variable 2' } },
});

async function excel(rows: unknown[][], name = 'clientes.xlsx') {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contactos');
  rows.forEach((row) => sheet.addRow(row));
  return new File([new Uint8Array(await workbook.xlsx.writeBuffer())], name);
}

async function openWizard(extra: Parameters<typeof installBoardApi>[2] = {}) {
  const api = installBoardApi(aBoard(), [], {
    [TEMPLATES]: () => json(200, [PEDIDO, aTemplate({ id: 'tpl-2', name: 'sin_variables', body_text: 'Hola', variables_schema: {} })]),
    ...extra,
  });
  renderApp('/t/acme');
  await screen.findAllByTestId('board-column');
  fireEvent.click(screen.getByRole('button', { name: 'Envío Masivo' }));
  const dialog = await screen.findByRole('dialog', { name: 'Envío Masivo' });
  return { api, dialog: within(dialog) };
}

type Dialog = Awaited<ReturnType<typeof openWizard>>['dialog'];

async function chooseFile(dialog: Dialog, file: File) {
  fireEvent.change(dialog.getByLabelText('Archivo Excel'), { target: { files: [file] } });
}

/** The approved templates load beside the dialog: a value with no option yet is not chosen (seen in a loaded CI run). */
const templatesLoaded = (dialog: Dialog) => waitFor(() => expect(dialog.getByRole('option', { name: 'aviso_pedido (UTILITY)' })).toBeTruthy());

const next = (dialog: Dialog) => dialog.getByRole('button', { name: 'Siguiente' }) as HTMLButtonElement;

async function toStepTwo(dialog: Dialog, rows: unknown[][]) {
  await chooseFile(dialog, await excel(rows));
  await dialog.findByText(/clientes\.xlsx: /);
  await templatesLoaded(dialog);
  fireEvent.change(dialog.getByLabelText('Plantilla aprobada'), { target: { value: 'tpl-1' } });
  fireEvent.click(next(dialog));
  await dialog.findByText('Paso 2 de 3: columnas');
}

describe('bulk-send wizard', () => {
  it('opens from Envío Masivo at 700 px and enables Siguiente only with an Excel file and a template', async () => {
    const { dialog } = await openWizard();
    expect(dialog.getByText('Paso 1 de 3: archivo y plantilla')).toBeTruthy();
    expect(screen.getByRole('dialog').className).toContain('max-w-[700px]');
    expect(next(dialog).disabled).toBe(true);

    await chooseFile(dialog, new File(['telefono\n5215512345678\n'], 'clientes.csv', { type: 'text/csv' }));
    expect(await screen.findAllByText(EXCEL_FILES_ONLY)).not.toHaveLength(0);
    await templatesLoaded(dialog);
    fireEvent.change(dialog.getByLabelText('Plantilla aprobada'), { target: { value: 'tpl-1' } });
    expect(next(dialog).disabled).toBe(true);

    await chooseFile(
      dialog,
      await excel([
        ['telefono', 'Variable 1', 'Variable 2'],
        ['5215512345678', 'Ana', 'A-1'],
        ['5215512345679', 'Luis', 'B-2'],
      ]),
    );
    expect(await dialog.findByText('clientes.xlsx: 2 filas, columnas telefono, Variable 1, Variable 2.')).toBeTruthy();
    expect(next(dialog).disabled).toBe(false);
    fireEvent.change(dialog.getByLabelText('Plantilla aprobada'), { target: { value: '' } });
    expect(next(dialog).disabled).toBe(true);
  });

  // Writing and reading a 100,001-row workbook in jsdom takes seconds, many more on a loaded machine.
  it.each([
    ['only the header row', [['telefono', 'Variable 1']], BULK_NO_DATA_ROWS],
    [
      'more rows than a send takes',
      [['telefono'], ...Array.from({ length: BULK_MAX_ROWS + 1 }, (_, index) => [String(5215500000000 + index)])],
      BULK_TOO_MANY_ROWS(BULK_MAX_ROWS + 1),
    ],
  ])(
    'keeps Siguiente off and says why for a file with %s',
    async (_label, rows, reason) => {
      const { dialog } = await openWizard();
      await templatesLoaded(dialog);
      fireEvent.change(dialog.getByLabelText('Plantilla aprobada'), { target: { value: 'tpl-1' } });
      await chooseFile(dialog, await excel(rows));
      expect((await dialog.findByRole('alert', {}, { timeout: 60_000 })).textContent).toBe(reason);
      expect(next(dialog).disabled).toBe(true);
    },
    120_000,
  );

  it('says when a file cannot be read as Excel and keeps Siguiente off', async () => {
    const { dialog } = await openWizard();
    fireEvent.change(dialog.getByLabelText('Plantilla aprobada'), { target: { value: 'tpl-1' } });
    await chooseFile(dialog, new File(['no soy un excel'], 'viejo.xls'));
    expect(await dialog.findByText(/No se pudo leer el archivo/)).toBeTruthy();
    expect(next(dialog).disabled).toBe(true);
  });

  it('picks the phone column by its name and the variables by their labels, and needs a phone column to go on', async () => {
    const { dialog } = await openWizard();
    await toStepTwo(dialog, [
      ['Nombre', 'Teléfono móvil', 'Variable 1', 'variable 2'],
      ['Ana', '5215512345678', 'Ana', 'A-1'],
    ]);
    expect((dialog.getByLabelText('Columna de teléfono') as HTMLSelectElement).value).toBe('Teléfono móvil');
    expect((dialog.getByLabelText('Columna para Variable 1 ({{1}})') as HTMLSelectElement).value).toBe('Variable 1');
    expect((dialog.getByLabelText('Columna para Variable 2 ({{2}})') as HTMLSelectElement).value).toBe('variable 2');
    expect(next(dialog).disabled).toBe(false);
    fireEvent.change(dialog.getByLabelText('Columna de teléfono'), { target: { value: '' } });
    expect(next(dialog).disabled).toBe(true);
  });

  it('leaves the phone column for the user to choose when no header names one', async () => {
    const { dialog } = await openWizard();
    await toStepTwo(dialog, [
      ['Celular', 'Variable 1', 'Variable 2'],
      ['5215512345678', 'Ana', 'A-1'],
    ]);
    expect((dialog.getByLabelText('Columna de teléfono') as HTMLSelectElement).value).toBe('');
    expect(next(dialog).disabled).toBe(true);
    fireEvent.change(dialog.getByLabelText('Columna de teléfono'), { target: { value: 'Celular' } });
    expect(next(dialog).disabled).toBe(false);
  });

  it('asks for the destination column, then sends the file with its mapping and says the batch is queued', async () => {
    let sent: FakeCall | undefined;
    const { dialog, api } = await openWizard({
      [CREATE]: (call) => {
        sent = call;
        return json(201, {});
      },
    });
    await toStepTwo(dialog, [
      ['telefono', 'Nombre', 'Variable 2'],
      ['5215512345678', 'Ana', 'A-1'],
    ]);
    fireEvent.change(dialog.getByLabelText('Columna para Variable 1 ({{1}})'), { target: { value: 'Nombre' } });
    fireEvent.click(next(dialog));
    await dialog.findByText('Paso 3 de 3: columna de destino');
    expect(dialog.getAllByRole('option').map((option) => option.textContent)).toEqual(['Selecciona una columna', 'Nuevos', 'En curso']);

    fireEvent.click(dialog.getByRole('button', { name: 'Iniciar Envío' }));
    expect(await screen.findByText(BULK_REQUIRED_FIELDS)).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/funnels/f1/batches')).toHaveLength(0);

    fireEvent.change(dialog.getByLabelText('Columna de destino'), { target: { value: 'col2' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Iniciar Envío' }));
    expect(await screen.findByText(BULK_SEND_QUEUED)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const form = sent!.body as FormData;
    expect((form.get('file') as File).name).toBe('clientes.xlsx');
    expect(Object.fromEntries([...form.entries()].filter(([key]) => key !== 'file'))).toEqual({
      templateId: 'tpl-1',
      targetColumnId: 'col2',
      phoneColumn: 'telefono',
      nameColumn: 'Nombre',
      variableColumns: JSON.stringify({ 1: 'Nombre', 2: 'Variable 2' }),
    });
  });

  it('offers the name column to title new chats, picked by its header, and sends none when left empty', async () => {
    let sent: FakeCall | undefined;
    const { dialog } = await openWizard({
      [CREATE]: (call) => {
        sent = call;
        return json(201, {});
      },
    });
    await toStepTwo(dialog, [
      ['telefono', 'Nombre completo', 'Variable 1', 'Variable 2'],
      ['5215512345678', 'Ana Pérez', 'Ana', 'A-1'],
    ]);
    const nameSelect = dialog.getByLabelText('Columna de nombre (opcional)') as HTMLSelectElement;
    expect(nameSelect.value).toBe('Nombre completo');
    fireEvent.change(nameSelect, { target: { value: '' } });
    expect(next(dialog).disabled).toBe(false);
    fireEvent.click(next(dialog));
    fireEvent.change(await dialog.findByLabelText('Columna de destino'), { target: { value: 'col1' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Iniciar Envío' }));
    await waitFor(() => expect(sent).toBeDefined());
    expect((sent!.body as FormData).has('nameColumn')).toBe(false);
  });

  it.each([
    [
      "the server's message",
      json(400, { code: 'BAD_REQUEST', message: 'La columna "telefono" no está en el archivo.' }),
      'La columna "telefono" no está en el archivo.',
    ],
    ['the fallback without one', new Response('', { status: 500 }), START_FAILED],
  ])('shows %s when the send cannot start, and stays open', async (_label, answer, message) => {
    const { dialog } = await openWizard({ [CREATE]: () => answer });
    await toStepTwo(dialog, [
      ['telefono', 'Variable 1', 'Variable 2'],
      ['5215512345678', 'Ana', 'A-1'],
    ]);
    fireEvent.click(next(dialog));
    fireEvent.change(await dialog.findByLabelText('Columna de destino'), { target: { value: 'col1' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Iniciar Envío' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Envío Masivo' })).toBeTruthy();
  });

  it('says Error al cargar plantillas when the approved templates cannot be loaded', async () => {
    await openWizard({ [TEMPLATES]: () => new Response('', { status: 500 }) });
    expect(await screen.findByText('Error al cargar plantillas')).toBeTruthy();
  });

  it('downloads plantilla_ejemplo.xlsx from the wizard', async () => {
    const created: Blob[] = [];
    // jsdom has no object URLs; the browser's would point at this blob.
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL(blob: Blob) {
          created.push(blob);
          return 'blob:muestra';
        }
        static override revokeObjectURL() {}
      },
    );
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const { dialog } = await openWizard();
    await templatesLoaded(dialog);
    fireEvent.change(dialog.getByLabelText('Plantilla aprobada'), { target: { value: 'tpl-1' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Descargar plantilla_ejemplo.xlsx' }));
    await waitFor(() => expect(clicked).toEqual(['plantilla_ejemplo.xlsx']));
    vi.restoreAllMocks();
    expect((await readExcelSummary(created[0]!)).headers).toEqual(['telefono', 'Variable 1', 'Variable 2']);
  });
});

describe('sample file and phone column', () => {
  it('has a telefono column and one column per variable label, with an example row', async () => {
    const data = await buildSampleWorkbook({ 2: { label: 'Pedido' }, 1: { label: 'Nombre' } });
    expect(await readExcelSummary(new Blob([data]))).toEqual({ headers: ['telefono', 'Nombre', 'Pedido'], rowCount: 1 });
    expect((await readExcelSummary(new Blob([await buildSampleWorkbook({})]))).headers).toEqual(['telefono']);
  });

  it.each([
    [['Nombre', 'Telefono'], 'Telefono'],
    [['Nombre', 'TELÉFONO cliente'], 'TELÉFONO cliente'],
    [['name', 'phone_number'], 'phone_number'],
    [['Mobile Phone', 'telefono'], 'Mobile Phone'],
    [['Celular', 'Nombre'], undefined],
  ])('in %j picks %s', (headers, expected) => {
    expect(pickPhoneColumn(headers)).toBe(expected);
  });
});
