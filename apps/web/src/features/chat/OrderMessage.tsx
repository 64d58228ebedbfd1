import { LineIcon } from '../../shared/ui/LineIcon.tsx';
import type { ChatMessage } from './chat.api.ts';
import { asRecord } from './message-payload.ts';

interface OrderItem {
  productId: string;
  quantity: number;
  unitPrice: number | null;
  currency: string | null;
}

/** `payload.order` of a customer's catalog order; items without a product or a quantity are left out. */
function orderItemsOf(message: ChatMessage): OrderItem[] {
  const items = asRecord(message.payload?.order)?.items;
  if (!Array.isArray(items)) return [];
  return items.flatMap((value) => {
    const item = asRecord(value);
    const quantity = Number(item?.quantity);
    if (!item || typeof item.productId !== 'string' || !Number.isFinite(quantity)) return [];
    const unitPrice = typeof item.unitPrice === 'number' && Number.isFinite(item.unitPrice) ? item.unitPrice : null;
    return [{ productId: item.productId, quantity, unitPrice, currency: typeof item.currency === 'string' && item.currency ? item.currency : null }];
  });
}

/** A price in its currency ("MX$120.00"); a code Intl does not know is written after the number. */
export function formatPrice(amount: number, currency: string | null) {
  if (!currency) return new Intl.NumberFormat('es', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
  try {
    return new Intl.NumberFormat('es', { style: 'currency', currency }).format(amount);
  } catch {
    return `${new Intl.NumberFormat('es', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)} ${currency}`;
  }
}

/** The total, only when every item has a price in one and the same currency. */
function orderTotal(items: OrderItem[]) {
  if (items.length === 0 || items.some((item) => item.unitPrice === null)) return null;
  const currencies = new Set(items.map((item) => item.currency));
  if (currencies.size > 1) return null;
  const amount = items.reduce((sum, item) => sum + item.quantity * item.unitPrice!, 0);
  return formatPrice(amount, items[0]!.currency);
}

/** The text the server writes for an order without words of its own; the card already says it. */
const ORDER_SUMMARY = /^Pedido: \d+ productos?$/;

/** A catalog order (issue 43): each product, its quantity and price, the total when it is known, and the customer's note. */
export function OrderMessage({ message }: { message: ChatMessage }) {
  const items = orderItemsOf(message);
  const units = items.reduce((sum, item) => sum + item.quantity, 0);
  const total = orderTotal(items);
  const note = message.text && !ORDER_SUMMARY.test(message.text) ? message.text : null;
  return (
    <div data-testid="message-order" className="min-w-52">
      <p className="mb-1 flex items-center gap-1 text-xs font-semibold text-slate-700">
        <LineIcon name="cart" />
        Pedido · {units} {units === 1 ? 'producto' : 'productos'}
      </p>
      <ul aria-label="Productos del pedido" className="divide-y divide-slate-200 rounded-lg bg-black/5 px-2 text-xs">
        {items.map((item, index) => (
          <li key={`${item.productId}-${index}`} className="flex justify-between gap-3 py-1">
            <span className="break-all font-medium text-slate-900">{item.productId}</span>
            <span className="shrink-0 text-slate-700">
              {item.quantity} × {item.unitPrice === null ? 'sin precio' : formatPrice(item.unitPrice, item.currency)}
            </span>
          </li>
        ))}
      </ul>
      {total && (
        <p data-testid="order-total" className="mt-1 flex justify-between gap-3 px-2 text-xs font-semibold text-slate-900">
          <span>Total</span>
          <span>{total}</span>
        </p>
      )}
      {note && <p className="mt-1 whitespace-pre-wrap break-words">{note}</p>}
    </div>
  );
}
