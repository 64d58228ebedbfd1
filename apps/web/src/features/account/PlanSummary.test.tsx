import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aTenant } from '../../test/session-fixture.ts';
import { PlanSummary, trialStatus } from './PlanSummary.tsx';

const now = new Date('2026-05-10T12:00:00Z');

describe('trialStatus', () => {
  it('counts the days left, and says when the trial ended', () => {
    expect(trialStatus('2026-05-15T12:00:00Z', now)).toMatchObject({ ended: false, text: expect.stringContaining('quedan 5 días') });
    expect(trialStatus('2026-05-10T20:00:00Z', now)?.text).toContain('queda 1 día');
    expect(trialStatus('2026-05-01T12:00:00Z', now)).toMatchObject({ ended: true, text: expect.stringContaining('Tu prueba gratuita terminó') });
    expect(trialStatus(null, now)).toBeNull();
  });
});

describe('PlanSummary', () => {
  it('names the plan and the trial end', () => {
    render(<PlanSummary tenant={aTenant({ subscription_plan: 'basic', trial_ends_at: '2026-05-17T12:00:00Z' })} now={now} />);
    expect(screen.getByTestId('plan-name').textContent).toBe('Básico (Starter)');
    expect(screen.getByTestId('trial-status').textContent).toMatch(/^Prueba gratuita hasta el 17 de mayo de 2026 \(quedan 7 días\)\.$/);
  });
});
