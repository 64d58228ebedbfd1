import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import {
  BULK_MAX_ROWS,
  BULK_REQUIRED_FIELDS,
  bulkRowCountProblem,
  BULK_SEND_QUEUED,
  defaultVariableColumns,
  EXCEL_FILES_ONLY,
  pickNameColumn,
  pickPhoneColumn,
  SAMPLE_FILE_NAME,
  thousands,
  variableNumbers,
} from '@embudo/contracts/http/bulk-sends';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { SelectField } from '../../shared/ui/SelectField.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import type { ApprovedTemplate } from '../chat/chat.api.ts';
import { useApprovedTemplates } from '../chat/use-approved-templates.ts';
import { batchesKey, bulkSendsApi } from './bulk-sends.api.ts';
import { downloadSampleWorkbook, readExcelSummary, type ExcelSummary } from './excel-workbook.ts';

export const START_FAILED = 'Error al iniciar el envío masivo.';
export const UNREADABLE_FILE = 'No se pudo leer el archivo. Si es un .xls antiguo (Excel 97-2003), ábrelo en Excel y guárdalo como .xlsx.';
export const NO_HEADERS = 'La primera fila del archivo debe tener los nombres de las columnas.';

const isExcelName = (name: string) => /\.xlsx?$/i.test(name);

const steps = { 1: 'Paso 1 de 3: archivo y plantilla', 2: 'Paso 2 de 3: columnas', 3: 'Paso 3 de 3: columna de destino' } as const;

const headerOptions = (headers: readonly string[]) =>
  headers.map((header) => (
    <option key={header} value={header}>
      {header}
    </option>
  ));

interface LoadedFile {
  file: File;
  summary: ExcelSummary;
}

/**
 * 'Envío Masivo' (spec 02 §2 Bulk send modal): 1 an Excel file and an approved template, 2 the phone column and
 * the columns of the template's variables, 3 the destination column of this funnel; the batch then runs on the server.
 */
export function BulkSendWizard({
  funnelId,
  columns,
  onClose,
}: {
  funnelId: string;
  columns: ReadonlyArray<{ id: string; title: string }>;
  onClose: () => void;
}) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [loaded, setLoaded] = useState<LoadedFile | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [templateId, setTemplateId] = useState('');
  const [phoneColumn, setPhoneColumn] = useState('');
  const [nameColumn, setNameColumn] = useState('');
  const [variableColumns, setVariableColumns] = useState<Record<string, string>>({});
  const [targetColumnId, setTargetColumnId] = useState('');
  const { templates, isLoading: templatesLoading } = useApprovedTemplates();
  const template = templates.find((candidate) => candidate.id === templateId);
  const headers = loaded?.summary.headers ?? [];

  const mapVariables = (next: ApprovedTemplate | undefined, fileHeaders: string[]) =>
    setVariableColumns(next ? defaultVariableColumns(next.variables_schema ?? {}, fileHeaders) : {});

  const chooseFile = async (file: File | undefined) => {
    setLoaded(null);
    setFileProblem(null);
    if (!file) return;
    if (!isExcelName(file.name)) {
      toast.error(EXCEL_FILES_ONLY);
      setFileProblem(EXCEL_FILES_ONLY);
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    setReading(true);
    try {
      const summary = await readExcelSummary(file);
      if (summary.headers.length === 0) {
        setFileProblem(NO_HEADERS);
        return;
      }
      setLoaded({ file, summary });
      setPhoneColumn(pickPhoneColumn(summary.headers) ?? '');
      setNameColumn(pickNameColumn(summary.headers) ?? '');
      mapVariables(template, summary.headers);
    } catch {
      setFileProblem(UNREADABLE_FILE);
    } finally {
      setReading(false);
    }
  };

  const chooseTemplate = (nextId: string) => {
    setTemplateId(nextId);
    mapVariables(
      templates.find((candidate) => candidate.id === nextId),
      headers,
    );
  };

  const downloadSample = async () => {
    try {
      await downloadSampleWorkbook(template?.variables_schema ?? {});
    } catch {
      toast.error(`No se pudo crear ${SAMPLE_FILE_NAME}.`);
    }
  };

  const start = useMutation({
    mutationFn: (request: Parameters<typeof bulkSendsApi.create>[1]) => bulkSendsApi.create(funnelId, request),
    onSuccess: () => {
      toast.success(BULK_SEND_QUEUED);
      void queryClient.invalidateQueries({ queryKey: batchesKey });
      onClose();
    },
    onError: (error) => toast.error(errorMessageOr(error, START_FAILED)),
  });

  const submit = () => {
    if (!loaded || !templateId || !targetColumnId || !phoneColumn) {
      toast.error(BULK_REQUIRED_FIELDS);
      return;
    }
    start.mutate({ file: loaded.file, templateId, targetColumnId, phoneColumn, nameColumn, variableColumns });
  };

  // A file the server would refuse is refused here, where it can still be swapped.
  const rowCountProblem = loaded ? bulkRowCountProblem(loaded.summary.rowCount) : undefined;
  const canLeaveStep1 = Boolean(loaded) && !rowCountProblem && Boolean(template);
  const canLeaveStep2 = phoneColumn !== '';
  const variables = template ? variableNumbers(template.variables_schema ?? {}) : [];

  const footer = (
    <>
      {step === 1 ? (
        <Button variant="secondary" onClick={onClose}>
          Cancelar
        </Button>
      ) : (
        <Button variant="secondary" onClick={() => setStep(step === 3 ? 2 : 1)} disabled={start.isPending}>
          Atrás
        </Button>
      )}
      {step === 1 && (
        <Button disabled={!canLeaveStep1} onClick={() => setStep(2)}>
          Siguiente
        </Button>
      )}
      {step === 2 && (
        <Button disabled={!canLeaveStep2} onClick={() => setStep(3)}>
          Siguiente
        </Button>
      )}
      {step === 3 && (
        <Button loading={start.isPending} onClick={submit}>
          Iniciar Envío
        </Button>
      )}
    </>
  );

  return (
    <Modal title="Envío Masivo" description={steps[step]} size="wizard" onClose={onClose} footer={footer}>
      {step === 1 && (
        <div className="space-y-5">
          <div>
            <label htmlFor={`${id}-file`} className="mb-1.5 block text-sm font-medium text-slate-700">
              Archivo Excel
            </label>
            <input
              ref={fileInput}
              id={`${id}-file`}
              type="file"
              accept=".xls,.xlsx,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              onChange={(event) => void chooseFile(event.target.files?.[0])}
              className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-emerald-50 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-emerald-700 hover:file:bg-emerald-100"
            />
            <p className="mt-1.5 text-xs text-slate-500" aria-live="polite">
              {reading
                ? 'Leyendo el archivo…'
                : loaded
                  ? `${loaded.file.name}: ${loaded.summary.rowCount} ${loaded.summary.rowCount === 1 ? 'fila' : 'filas'}, columnas ${loaded.summary.headers.join(', ')}.`
                  : `La primera fila tiene los nombres de las columnas. Máximo ${thousands(BULK_MAX_ROWS)} filas.`}
            </p>
            {fileProblem && (
              <p role="alert" className="mt-1.5 text-sm text-rose-600">
                {fileProblem}
              </p>
            )}
            {rowCountProblem && (
              <p role="alert" className="mt-1.5 text-sm text-rose-600">
                {rowCountProblem}
              </p>
            )}
          </div>

          <SelectField label="Plantilla aprobada" value={templateId} onChange={(event) => chooseTemplate(event.target.value)} disabled={templatesLoading}>
            <option value="">{templatesLoading ? 'Cargando plantillas…' : 'Selecciona una plantilla'}</option>
            {templates.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name} ({candidate.category})
              </option>
            ))}
          </SelectField>
          {!templatesLoading && templates.length === 0 && (
            <p className="text-sm text-slate-500">No hay plantillas aprobadas. Crea una en Plantillas y espera su aprobación para enviarla.</p>
          )}
          {template && (
            <p className="whitespace-pre-wrap rounded-lg bg-slate-50 p-3 text-sm text-slate-700 ring-1 ring-slate-200" data-testid="bulk-template-body">
              {template.body_text}
            </p>
          )}

          <div className="flex flex-wrap items-center gap-3 rounded-lg bg-emerald-50/60 p-3 text-sm text-slate-600 ring-1 ring-emerald-100">
            <span className="min-w-0 flex-1">
              ¿No tienes el archivo? Descarga la plantilla de ejemplo: columna telefono
              {template && variables.length > 0 ? ' y una columna por cada variable de la plantilla.' : '.'}
            </span>
            <Button size="sm" variant="secondary" onClick={() => void downloadSample()}>
              Descargar {SAMPLE_FILE_NAME}
            </Button>
          </div>
        </div>
      )}

      {step === 2 && (
        <div className="space-y-4">
          <SelectField
            label="Columna de teléfono"
            value={phoneColumn}
            onChange={(event) => setPhoneColumn(event.target.value)}
            hint="Código de país y número, p. ej. 5215512345678. Las filas con teléfonos inválidos se cuentan como fallidas y los repetidos se envían una vez."
          >
            <option value="">Selecciona una columna</option>
            {headerOptions(headers)}
          </SelectField>
          <SelectField
            label="Columna de nombre (opcional)"
            value={nameColumn}
            onChange={(event) => setNameColumn(event.target.value)}
            hint="Los chats nuevos se titulan con este nombre en lugar del teléfono."
          >
            <option value="">Sin nombre: titular con el teléfono</option>
            {headerOptions(headers)}
          </SelectField>
          {variables.length > 0 && (
            <fieldset className="space-y-3">
              <legend className="mb-1 text-sm font-semibold text-slate-800">Variables de la plantilla</legend>
              {variables.map((n) => {
                const label = template?.variables_schema?.[n]?.label ?? `Variable ${n}`;
                return (
                  <SelectField
                    key={n}
                    label={`Columna para ${label} ({{${n}}})`}
                    value={variableColumns[n] ?? ''}
                    onChange={(event) =>
                      setVariableColumns((current) => {
                        const next = { ...current };
                        if (event.target.value) next[n] = event.target.value;
                        else delete next[n];
                        return next;
                      })
                    }
                  >
                    <option value="">Sin asignar</option>
                    {headerOptions(headers)}
                  </SelectField>
                );
              })}
              {variables.some((n) => !variableColumns[n]) && (
                <p className="text-sm text-amber-700">Asigna una columna a cada variable: sin ella la plantilla no se puede enviar.</p>
              )}
            </fieldset>
          )}
        </div>
      )}

      {step === 3 && (
        <div className="space-y-3">
          <SelectField label="Columna de destino" value={targetColumnId} onChange={(event) => setTargetColumnId(event.target.value)}>
            <option value="">Selecciona una columna</option>
            {columns.map((column) => (
              <option key={column.id} value={column.id}>
                {column.title}
              </option>
            ))}
          </SelectField>
          <p className="text-sm text-slate-500">
            Los contactos nuevos aparecerán en esta columna; los chats que ya existen se quedan donde están. Seguirás el avance en Envíos.
          </p>
        </div>
      )}
    </Modal>
  );
}
