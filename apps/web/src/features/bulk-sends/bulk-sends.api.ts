import type { BatchDto, BatchFailureDto, CreateBatchResponse } from '@embudo/contracts/http/bulk-sends';
import { api } from '../../shared/api-client/api-client.ts';

export const batchesKey = ['batches'] as const;
/** Under the batches key, so a batch_updated refetch reads an open failure list again too. */
export const batchFailuresKey = (batchId: string) => [...batchesKey, batchId, 'failures'] as const;

export interface BatchRequest {
  file: File;
  templateId: string;
  targetColumnId: string;
  phoneColumn: string;
  /** The column with each contact's name, which titles their new chat; empty for none. */
  nameColumn: string;
  /** Variable number → the header of the column that fills it. */
  variableColumns: Record<string, string>;
}

export const bulkSendsApi = {
  list: () => api.get<BatchDto[]>('/api/batches'),
  failures: (batchId: string) => api.get<BatchFailureDto[]>(`/api/batches/${encodeURIComponent(batchId)}/failures`),
  create: (funnelId: string, request: BatchRequest) => {
    const form = new FormData();
    form.append('file', request.file, request.file.name);
    form.append('templateId', request.templateId);
    form.append('targetColumnId', request.targetColumnId);
    form.append('phoneColumn', request.phoneColumn);
    if (request.nameColumn) form.append('nameColumn', request.nameColumn);
    form.append('variableColumns', JSON.stringify(request.variableColumns));
    return api.post<CreateBatchResponse>(`/api/funnels/${encodeURIComponent(funnelId)}/batches`, form);
  },
};
