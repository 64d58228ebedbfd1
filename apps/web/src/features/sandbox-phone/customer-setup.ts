import { useCallback, useState } from 'react';
import type { SandboxSendRequest } from '@embudo/contracts/http/sandbox-phone';

/** Who the person plays: a customer of the signed-in member's company, optionally writing in a group. */
export interface CustomerSetup {
  phone: string;
  name: string;
  inGroup: boolean;
  groupId: string;
  groupName: string;
}

const STORAGE_KEY = 'sandbox_phone_setup';
const PHONE = /^\d{6,20}$/;
const GROUP_ID = /^\d{6,30}$/;

export const DEFAULT_SETUP: CustomerSetup = { phone: '5215512345678', name: 'Cliente de prueba', inGroup: false, groupId: '', groupName: '' };

export function phoneProblem(phone: string) {
  return PHONE.test(phone) ? null : 'Solo dígitos, con código de país (de 6 a 20).';
}

export function groupIdProblem(groupId: string) {
  return GROUP_ID.test(groupId) ? null : 'Solo dígitos (de 6 a 30).';
}

/** The sandbox keeps a group's messages under the group's id, a customer's under the phone. */
export function conversationKeyOf(setup: CustomerSetup): string | null {
  if (phoneProblem(setup.phone)) return null;
  if (!setup.inGroup) return setup.phone;
  return groupIdProblem(setup.groupId) ? null : setup.groupId;
}

export function senderOf(setup: CustomerSetup): Omit<SandboxSendRequest, 'message'> {
  const name = setup.name.trim();
  const groupName = setup.groupName.trim();
  return {
    phone: setup.phone,
    ...(name ? { name } : {}),
    ...(setup.inGroup ? { group: { id: setup.groupId, ...(groupName ? { name: groupName } : {}) } } : {}),
  };
}

function readStored(): CustomerSetup {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<CustomerSetup> | null;
    if (!stored || typeof stored !== 'object') return DEFAULT_SETUP;
    const { phone, name, inGroup, groupId, groupName } = { ...DEFAULT_SETUP, ...stored };
    return { phone, name, inGroup, groupId, groupName };
  } catch {
    return DEFAULT_SETUP;
  }
}

/** The setup survives a reload, so a person can keep playing the same customer. */
export function useCustomerSetup() {
  const [setup, setSetup] = useState<CustomerSetup>(readStored);
  const update = useCallback((changes: Partial<CustomerSetup>) => {
    setSetup((current) => {
      const next = { ...current, ...changes };
      localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      return next;
    });
  }, []);
  return { setup, update };
}
