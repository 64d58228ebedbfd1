import { useState } from 'react';
import { Button, type ButtonProps } from './Button.tsx';

/** Copies `text` to the clipboard and says so ("Copiada"); a refused clipboard leaves it as it was. */
export function CopyButton({ text, size }: { text: string; size?: ButtonProps['size'] }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Button variant="secondary" size={size} onClick={() => void copy()}>
      {copied ? 'Copiada' : 'Copiar'}
    </Button>
  );
}
