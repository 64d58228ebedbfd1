import type { ReactNode } from 'react';
import type { DraftButton, DraftHeader } from './template-draft.ts';

export interface TemplatePreviewContent {
  header: DraftHeader | null;
  body_text: string;
  footer: string | null;
  buttons: readonly DraftButton[];
}

const mediaLabel = { IMAGE: 'Imagen', VIDEO: 'Video', DOCUMENT: 'Documento' } as const;

function ButtonIcon({ type }: { type: DraftButton['type'] }) {
  const paths: Record<DraftButton['type'], ReactNode> = {
    QUICK_REPLY: <path d="M8 5V2L2 8l6 6v-3c4 0 7 1 9 5-1-5-4-10-9-11Z" />,
    URL: <path d="M11 3h6v6h-2V6.4l-6.3 6.3-1.4-1.4L13.6 5H11V3ZM4 5h5v2H5v8h8v-4h2v6H3V5h1Z" />,
    PHONE_NUMBER: <path d="M5 2h3l1.5 4-2 1.5a11 11 0 0 0 5 5l1.5-2 4 1.5v3a2 2 0 0 1-2 2A15 15 0 0 1 3 4a2 2 0 0 1 2-2Z" />,
  };
  return (
    <svg viewBox="0 0 20 20" className="size-3.5 shrink-0" fill="currentColor" aria-hidden="true">
      {paths[type]}
    </svg>
  );
}

function HeaderView({ header }: { header: DraftHeader }) {
  if (header.type === 'TEXT') return header.text ? <p className="px-1 pb-1 font-semibold">{header.text}</p> : null;
  const url = header.media_url;
  return (
    <div className="-mx-0.5 mb-1 overflow-hidden rounded-md bg-slate-200">
      {url && header.type === 'IMAGE' ? (
        <img src={url} alt="Encabezado de la plantilla" className="max-h-40 w-full object-cover" />
      ) : url && header.type === 'VIDEO' ? (
        <video src={url} className="max-h-40 w-full" aria-label="Encabezado de la plantilla" muted />
      ) : (
        <div className="grid h-24 place-items-center text-xs font-medium text-slate-500" data-testid="preview-media-placeholder">
          {url ? `${mediaLabel[header.type]} adjunto` : mediaLabel[header.type]}
        </div>
      )}
    </div>
  );
}

/** The template as WhatsApp shows it on a phone: header, body, footer and the buttons under the bubble. */
export function TemplatePhonePreview({ template, className = '' }: { template: TemplatePreviewContent; className?: string }) {
  return (
    <div data-testid="template-preview" className={`rounded-2xl bg-[#e5ddd5] p-3 ${className}`}>
      <div className="max-w-[260px]">
        <div className="rounded-lg rounded-tl-none bg-white px-2 pt-1.5 pb-1 text-sm text-slate-900 shadow-sm">
          {template.header && <HeaderView header={template.header} />}
          <p className="px-1 break-words whitespace-pre-wrap" data-testid="preview-body">
            {template.body_text || <span className="text-slate-400">El cuerpo del mensaje aparecerá aquí.</span>}
          </p>
          {template.footer && (
            <p className="px-1 pt-1 text-xs text-slate-500" data-testid="preview-footer">
              {template.footer}
            </p>
          )}
          <p className="pt-0.5 text-right text-[11px] text-slate-400">12:00</p>
        </div>
        {template.buttons.length > 0 && (
          <ul className="mt-1 space-y-1" aria-label="Botones de la plantilla">
            {template.buttons.map((button, index) => (
              <li
                key={index}
                data-button-type={button.type}
                className="flex items-center justify-center gap-1.5 rounded-lg bg-white px-2 py-1.5 text-sm font-medium text-sky-600 shadow-sm"
              >
                <ButtonIcon type={button.type} />
                <span className="truncate">{button.text || 'Botón'}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
