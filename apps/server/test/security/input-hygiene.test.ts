import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as admin from '@embudo/contracts/http/admin';
import * as agenda from '@embudo/contracts/http/agenda';
import * as auth from '@embudo/contracts/http/auth';
import * as autobot from '@embudo/contracts/http/autobot';
import * as bots from '@embudo/contracts/http/bots';
import * as bulkSends from '@embudo/contracts/http/bulk-sends';
import * as chats from '@embudo/contracts/http/chats';
import * as funnels from '@embudo/contracts/http/funnels';
import * as templates from '@embudo/contracts/http/templates';
import * as users from '@embudo/contracts/http/users';
import { botConfig, nodeContracts } from '@embudo/contracts/flows/flow';
import { joinTenantPayload } from '@embudo/contracts/realtime/events';
import { FORBIDDEN_CHARACTERS, hasForbiddenCharacters, requiredText, safeText, trimmedText, withoutForbiddenCharacters } from '@embudo/contracts/text';
import { jsonNestsDeeperThan } from '../../src/platform/http/json-body-parser.ts';
import { uploadFileName } from '../../src/platform/http/multipart-upload.ts';

const NUL = 'a\u0000b';
const LONE_HIGH = 'a\uD83Db';
const LONE_LOW = 'a\uDE00b';
const REVERSED_PAIR = '\uDE00\uD83D';
const EMOJI = '😀';
const MEGABYTE = 'x'.repeat(1024 * 1024);

describe('the text building blocks', () => {
  it('find NUL bytes and lone surrogates, and nothing else', () => {
    for (const bad of [NUL, LONE_HIGH, LONE_LOW, REVERSED_PAIR, '\uD83D', '\uDE00']) expect(hasForbiddenCharacters(bad), JSON.stringify(bad)).toBe(true);
    for (const good of ['', 'hola', EMOJI, `ñandú ${EMOJI} 東京`, '\u0001 tab\t']) expect(hasForbiddenCharacters(good), good).toBe(false);
  });

  it('clean a text by dropping only the bad code units', () => {
    expect(withoutForbiddenCharacters(NUL)).toBe('ab');
    expect(withoutForbiddenCharacters(LONE_HIGH)).toBe('ab');
    expect(withoutForbiddenCharacters(`${LONE_LOW}${EMOJI}`)).toBe(`ab${EMOJI}`);
    expect(withoutForbiddenCharacters(REVERSED_PAIR)).toBe('');
  });

  it('refuse bad characters and long texts with clear Spanish messages', () => {
    expect(safeText(5).safeParse(NUL).error?.issues[0]?.message).toBe(FORBIDDEN_CHARACTERS);
    expect(safeText(5).safeParse('123456').error?.issues[0]?.message).toBe('Máximo 5 caracteres.');
    expect(safeText(5, { tooLong: 'Demasiado largo.' }).safeParse('123456').error?.issues[0]?.message).toBe('Demasiado largo.');
    expect(safeText(5, { error: 'Debe ser texto.' }).safeParse(12).error?.issues[0]?.message).toBe('Debe ser texto.');
    expect(safeText(5).parse(EMOJI)).toBe(EMOJI);
  });

  it('trim before counting and ask for required texts', () => {
    expect(trimmedText(3).parse('  abc  ')).toBe('abc');
    expect(requiredText(3, 'Requerido.').safeParse('   ').error?.issues[0]?.message).toBe('Requerido.');
    expect(requiredText(3, 'Requerido.').safeParse(undefined).error?.issues[0]?.message).toBe('Requerido.');
    expect(requiredText(3, 'Requerido.').safeParse(LONE_HIGH).error?.issues[0]?.message).toBe(FORBIDDEN_CHARACTERS);
  });
});

/** The parts of zod's definition the walk needs (zod keeps them under `_zod.def`). */
interface Definition {
  type: string;
  shape?: Record<string, Walkable>;
  innerType?: Walkable;
  in?: Walkable;
  out?: Walkable;
  element?: Walkable;
  keyType?: Walkable;
  valueType?: Walkable;
  options?: Walkable[];
  left?: Walkable;
  right?: Walkable;
}
type Walkable = z.ZodType;
const definitionOf = (schema: Walkable) => (schema as unknown as { _zod: { def: Definition } })._zod.def;

/** Every string schema inside a schema, with the path that leads to it. */
function stringLeaves(schema: Walkable, path: string, found: Array<{ path: string; leaf: Walkable }>) {
  const def = definitionOf(schema);
  if (def.type === 'string') found.push({ path, leaf: schema });
  for (const [key, child] of Object.entries(def.shape ?? {})) stringLeaves(child, `${path}.${key}`, found);
  for (const child of [def.innerType, def.in, def.out, def.element, def.left, def.right]) if (child) stringLeaves(child, path, found);
  if (def.keyType) stringLeaves(def.keyType, `${path}{key}`, found);
  if (def.valueType) stringLeaves(def.valueType, `${path}{value}`, found);
  for (const [index, option] of (def.options ?? []).entries()) stringLeaves(option, `${path}|${index}`, found);
  return found;
}

/** Every schema a client's input is checked with: requests, queries, params, multipart fields, flows, the socket join. */
function inputContracts(): Array<[string, Walkable]> {
  const modules = { admin, agenda, auth, autobot, bots, bulkSends, chats, funnels, templates, users };
  const named = Object.entries(modules).flatMap(([module, exports]) =>
    Object.entries(exports as Record<string, unknown>)
      .filter(([name, value]) => /(Request|Query|Fields|Params)$/.test(name) && typeof value === 'object' && value !== null && '_zod' in value)
      .map(([name, value]): [string, Walkable] => [`${module}.${name}`, value as Walkable]),
  );
  const nodes = Object.entries(nodeContracts).map(([type, contract]): [string, Walkable] => [`flows.${type}`, contract.data as unknown as Walkable]);
  return [...named, ...nodes, ['flows.botConfig', botConfig], ['realtime.joinTenantPayload', joinTenantPayload]];
}

describe('every string field of every input contract', () => {
  const contracts = inputContracts();

  it('covers the whole contract surface', () => {
    expect(contracts.length).toBeGreaterThan(40);
  });

  it.each(contracts)('%s refuses NUL bytes, lone surrogates and 1 MB strings in each of its texts', (_name, schema) => {
    const leaves = stringLeaves(schema, '', []);
    const accepted: string[] = [];
    for (const { path, leaf } of leaves) {
      for (const [what, value] of [
        ['NUL', NUL],
        ['lone surrogate', LONE_HIGH],
        ['low surrogate', LONE_LOW],
        ['1 MB', MEGABYTE],
      ] as const) {
        if (leaf.safeParse(value).success) accepted.push(`${path || '(root)'} accepts ${what}`);
      }
    }
    expect(accepted).toEqual([]);
  });
});

describe('JSON nesting on the raw text', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonNestsDeeperThan('[[[1]]]', 3)).toBe(false);
    expect(jsonNestsDeeperThan('[[[[1]]]]', 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":{"c":1}}}', 3)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":"[[[[[[[[[[{{{{{"}', 2)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":"\\"[[[[[[[[\\\\"}', 2)).toBe(false);
    expect(jsonNestsDeeperThan(`${'['.repeat(5000)}${']'.repeat(5000)}`, 64)).toBe(true);
    expect(jsonNestsDeeperThan(`[${'[],'.repeat(5000)}[]]`, 2)).toBe(false);
  });
});

describe('upload file names', () => {
  it('are kept readable and safe: no bad code units, control characters or folders, at most 255 characters', () => {
    expect(uploadFileName('foto.png', 'archivo')).toBe('foto.png');
    expect(uploadFileName('fo\u0000to\uD800.png', 'archivo')).toBe('foto.png');
    expect(uploadFileName('C:\\Users\\ana\\precios.csv', 'archivo')).toBe('precios.csv');
    expect(uploadFileName('../../etc/passwd', 'archivo')).toBe('passwd');
    expect(uploadFileName('línea\nnueva\r.txt', 'archivo')).toBe('líneanueva.txt');
    expect(uploadFileName('\u0000\uDC00', 'archivo')).toBe('archivo');
    expect(uploadFileName(undefined, 'herramienta')).toBe('herramienta');
    const long = uploadFileName(`${'a'.repeat(254)}${EMOJI}.txt`, 'archivo');
    expect(long).toBe('a'.repeat(254));
    expect(hasForbiddenCharacters(long)).toBe(false);
  });
});
