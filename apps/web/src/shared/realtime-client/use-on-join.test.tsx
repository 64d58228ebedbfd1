import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RealtimeContext, type ConnectionStatus } from './realtime-context.ts';
import { useOnJoin } from './use-on-join.ts';

function Reader({ onJoin }: { onJoin: () => void }) {
  useOnJoin(onJoin);
  return null;
}

function mountWith(status: ConnectionStatus) {
  const onJoin = vi.fn();
  const ui = (next: ConnectionStatus) => (
    <RealtimeContext.Provider value={{ socket: null, status: next, retry: () => undefined }}>
      <Reader onJoin={onJoin} />
    </RealtimeContext.Provider>
  );
  const view = render(ui(status));
  return { onJoin, become: (next: ConnectionStatus) => view.rerender(ui(next)) };
}

describe('useOnJoin', () => {
  it('reads again after the first join when mounted while the socket was still joining, and after each later one', () => {
    const { onJoin, become } = mountWith('connecting');
    expect(onJoin).not.toHaveBeenCalled();
    become('connected');
    expect(onJoin).toHaveBeenCalledTimes(1);
    become('disconnected');
    become('connecting');
    become('connected');
    expect(onJoin).toHaveBeenCalledTimes(2);
  });

  it('does not read again for the join it was mounted on, only for the next', () => {
    const { onJoin, become } = mountWith('connected');
    expect(onJoin).not.toHaveBeenCalled();
    become('connecting');
    become('connected');
    expect(onJoin).toHaveBeenCalledTimes(1);
  });
});
