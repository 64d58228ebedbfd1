import { useState, type FormEvent } from 'react';
import { BOT_NAME_REQUIRED, botTypes, type BotType } from '@embudo/contracts/http/bots';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { SelectField } from '../../shared/ui/SelectField.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { botTypeLabels } from './bots.api.ts';

/** Creation asks for a name and a type (spec 02 §2 Bots Studio); the name is required (§5). */
export function CreateBotDialog({
  onCreate,
  onClose,
  creating,
}: {
  onCreate: (input: { name: string; type: BotType }) => void;
  onClose: () => void;
  creating: boolean;
}) {
  const [name, setName] = useState('');
  const [type, setType] = useState<BotType>('scheduling');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(BOT_NAME_REQUIRED);
      return;
    }
    onCreate({ name: name.trim(), type });
  };

  return (
    <Modal
      title="Crear nuevo bot"
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" form="create-bot-form" loading={creating}>
            Crear Bot
          </Button>
        </>
      }
    >
      <form id="create-bot-form" onSubmit={submit} className="space-y-4" noValidate>
        <TextField
          label="Nombre del bot"
          value={name}
          error={error}
          placeholder="Ej. Agenda de citas"
          onChange={(event) => {
            setName(event.target.value);
            setError(null);
          }}
        />
        <SelectField label="Tipo de bot" value={type} onChange={(event) => setType(event.target.value as BotType)}>
          {botTypes.map((value) => (
            <option key={value} value={value}>
              {botTypeLabels[value]}
            </option>
          ))}
        </SelectField>
      </form>
    </Modal>
  );
}
