import { timerUnitMs, type TimerUnit } from '@embudo/contracts/flows/nodes/timer';
import { next, type NodeExecutor } from '../node-executor.ts';

const unitNames: Record<TimerUnit, [string, string]> = {
  seconds: ['segundo', 'segundos'],
  minutes: ['minuto', 'minutos'],
  hours: ['hora', 'horas'],
  days: ['día', 'días'],
};
export const describeDuration = (duration: number, unit: TimerUnit) => `${duration} ${unitNames[unit][duration === 1 ? 0 : 1]}`;

/** Live chats wait through the job queue; the playground reports the wait and goes on at once. */
export const timer: NodeExecutor<'timer'> = {
  async run(data, ctx) {
    if (ctx.mode === 'simulation') {
      ctx.report(`[⏱ Temporizador de ${describeDuration(data.duration, data.unit)}: en el Playground no se espera]`);
      return next();
    }
    return { kind: 'wait_timer', ms: Math.round(data.duration * timerUnitMs[data.unit]) };
  },
};
