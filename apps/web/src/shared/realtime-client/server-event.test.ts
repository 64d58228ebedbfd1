import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadRealtimeClient, readServerEvent } from './server-event.ts';

beforeAll(async () => {
  await loadRealtimeClient();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('readServerEvent', () => {
  it('answers the payload checked against its contract', () => {
    expect(readServerEvent('message_status_updated', { cardId: 'c1', messageId: 'm1', tempId: null, ack: 2 })).toEqual({
      cardId: 'c1',
      messageId: 'm1',
      tempId: null,
      ack: 2,
    });
    expect(readServerEvent('message:new', { cardId: 'c1', message: { id: 'm1', mediaUrl: '/media/a.jpg', updated: true } })?.message).toEqual({
      id: 'm1',
      mediaUrl: '/media/a.jpg',
      updated: true,
    });
  });

  it('drops a payload that does not match, with a warning while developing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(readServerEvent('card_updated', { id: 'c1', unreadCount: 'muchos' })).toBeUndefined();
    expect(readServerEvent('message_status_updated', { cardId: 'c1', messageId: 'm1', ack: 7 })).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0]![0])).toContain('card_updated');
  });
});
