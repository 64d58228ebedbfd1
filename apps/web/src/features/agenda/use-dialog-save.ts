import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { useToast } from '../../shared/ui/use-toast.ts';

interface DialogSaveOptions {
  /** The form's own check: the message to show inside the dialog, or null to save. */
  problem: () => string | null;
  save: () => Promise<unknown>;
  success: string;
  /** Shown when the server sends no message of its own (spec 02 §8). */
  failure: string;
  onSaved: () => void;
  onClose: () => void;
}

/**
 * How every agenda dialog saves: its own check answered inside the dialog, the server's refusal
 * (or the fallback) as an error notification, success as a notification that closes the dialog.
 */
export function useDialogSave({ problem, save, success, failure, onSaved, onClose }: DialogSaveOptions) {
  const toast = useToast();
  const [shownProblem, setShownProblem] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: () => {
      toast.success(success);
      onSaved();
      onClose();
    },
    onError: (error) => toast.error(errorMessageOr(error, failure)),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = problem();
    setShownProblem(found);
    if (!found) mutation.mutate();
  };
  return { problem: shownProblem, onSubmit, saving: mutation.isPending };
}
