import { afterAll, describe, expect, it } from 'vitest';
import { makePdf, makePdfWithoutText } from '../../../../test/support/knowledge-files.ts';
import { AppError } from '../../../platform/errors/app-error.ts';
import { PDF_WITHOUT_TEXT, readKnowledgeFile } from './knowledge-files.ts';
import { KnowledgeReader, READ_TOO_SLOW } from './knowledge-reader.ts';

const readers: KnowledgeReader[] = [];
const reader = (timeoutMs?: number) => {
  const made = new KnowledgeReader(timeoutMs);
  readers.push(made);
  return made;
};
afterAll(async () => Promise.all(readers.map((made) => made.stop())));

const refusalOf = (reading: Promise<unknown>) =>
  reading.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('knowledge files read on a thread of their own', () => {
  it('answers what reading on the server thread answers: the text, or the 400 that says why', async () => {
    const off = reader();
    const pdf = { fileName: 'Precios.pdf', data: makePdf(['El corte de cabello cuesta 250 pesos.', 'Abrimos de lunes a sábado.']) };
    const [first, second] = await Promise.all([off.read(pdf), off.read({ fileName: 'notas.txt', data: Buffer.from('Hola\r\nmundo') })]);
    expect(first).toEqual(await readKnowledgeFile(pdf));
    expect(second).toEqual({ extension: 'txt', text: 'Hola\nmundo' });

    const refused = await refusalOf(off.read({ fileName: 'escaneo.pdf', data: makePdfWithoutText() }));
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 400, message: PDF_WITHOUT_TEXT });
  });

  it('refuses a file that takes too long, and reads the next one with a new worker', async () => {
    const off = reader(1);
    expect(await refusalOf(off.read({ fileName: 'largo.pdf', data: makePdf(['uno']) }))).toMatchObject({ status: 400, message: READ_TOO_SLOW });
    off.timeoutMs = 60_000;
    expect(await off.read({ fileName: 'corto.md', data: Buffer.from('# Horario') })).toEqual({ extension: 'md', text: '# Horario' });
  });

  it('fails the files still being read when it stops', async () => {
    const stopping = reader();
    const reading = refusalOf(stopping.read({ fileName: 'Precios.pdf', data: makePdf(['precio']) }));
    await stopping.stop();
    expect(await reading).toMatchObject({ message: 'knowledge reader stopped' });
  });
});
