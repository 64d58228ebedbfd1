import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ackByStatus,
  ProviderError,
  type InboundEvent,
  type InboundMessage,
  type InboundStatus,
  type OutboundContent,
  type ProviderTemplate,
  type WebhookDelivery,
  type WhatsAppLine,
} from '../../src/messaging-providers/provider.ts';

/**
 * The provider port's contract, run against every adapter, each against its own faithful fake
 * (docs/decisions/0014). Whatever the provider, a module sees the same behaviour through `WhatsAppLine`.
 */
export interface ContractHarness {
  /** The adapter's line for an account its fake knows; the fake delivers its webhooks to `deliveries()`. */
  line: WhatsAppLine;
  /** Every webhook delivery the fake made so far, as it arrived (headers and raw bytes). */
  deliveries(): WebhookDelivery[];
  /** The fake plays a customer writing to the business; answers the WhatsApp id of the message. */
  customerWrites(phone: string, message: { kind: 'text'; text: string } | { kind: 'image'; data: Buffer; contentType: string }): Promise<string>;
  /** The statuses the customer's phone shows for its conversation, oldest first. */
  phoneStatuses(phone: string): Promise<Array<{ direction: string; status: string }>>;
  /** A number the provider reports as not on WhatsApp. */
  numberNotOnWhatsApp: string;
  /** A body word the fake's review rejects. */
  rejectWord: string;
  /** The same account with credentials the provider refuses. */
  lineWithWrongCredentials: WhatsAppLine;
  close(): Promise<void>;
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 6000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

export function providerContract(name: string, setUp: () => Promise<ContractHarness>) {
  describe(`${name} meets the provider contract`, () => {
    let h: ContractHarness;
    let customer = 5215590000000;
    const nextCustomer = () => String(++customer);

    beforeAll(async () => {
      h = await setUp();
    });
    afterAll(async () => h.close());

    /** Every event of every delivery so far, each delivery first checked as authentic. */
    const events = (): InboundEvent[] =>
      h.deliveries().flatMap((delivery) => {
        expect(h.line.webhook.authentic(delivery)).toBe(true);
        return h.line.webhook.parse(JSON.parse(delivery.rawBody.toString('utf8')) as unknown);
      });
    const statusesOf = (id: string) =>
      events().filter((event): event is InboundStatus => event.kind === 'status' && (event.providerMessageId === id || event.whatsappMessageId === id));
    const inbound = (id: string) => events().find((event): event is InboundMessage => event.kind === 'message' && event.providerMessageId === id);

    it('sends a text, and its statuses come back through the webhook sent → delivered → read, never going back', async () => {
      const phone = nextCustomer();
      await h.customerWrites(phone, { kind: 'text', text: 'Hola' });
      const { providerMessageId } = await h.line.send(phone, { type: 'text', text: 'Hola, ¿en qué te ayudo?' });
      expect(providerMessageId).toBeTruthy();
      const statuses = await until(() => {
        const found = statusesOf(providerMessageId);
        return found.some((status) => status.status === 'read') && found;
      });
      const acks = statuses.map((status) => ackByStatus[status.status]);
      expect(acks).toEqual([...acks].sort((a, b) => a - b));
      expect(acks.at(-1)).toBe(3);
      expect(statuses.map((status) => status.status)).toContain('sent');
      expect(await h.phoneStatuses(phone)).toContainEqual({ direction: 'to_customer', status: 'read' });
    });

    it('accepts every kind of content the app sends', async () => {
      const phone = nextCustomer();
      await h.customerWrites(phone, { kind: 'text', text: 'Hola' });
      const contents: OutboundContent[] = [
        { type: 'image', url: 'https://cdn.example.com/p.jpg', caption: 'Producto' },
        { type: 'video', url: 'https://cdn.example.com/v.mp4', caption: 'Demo' },
        { type: 'audio', url: 'https://cdn.example.com/nota.ogg', fileName: 'voice-1.ogg' },
        { type: 'document', url: 'https://cdn.example.com/boleto.pdf', fileName: 'boleto.pdf', caption: 'Boleto' },
        { type: 'sticker', url: 'https://cdn.example.com/s.webp' },
        { type: 'location', latitude: -23.5505, longitude: -46.6333, name: 'Loja Centro', address: 'Praça da Sé' },
        { type: 'quick_reply', msgId: 'menu-1', text: '¿Qué necesitas?', options: [{ title: 'Ventas', postbackText: '1' }] },
        {
          type: 'list',
          msgId: 'menu-2',
          title: 'Atención',
          body: 'Elige una opción',
          buttonTitle: 'Ver opciones',
          options: [{ title: 'Nuevo pedido', description: 'Hacer un pedido', postbackText: 'sales_new' }],
        },
      ];
      for (const content of contents) {
        const { providerMessageId } = await h.line.send(phone, content);
        expect(providerMessageId, content.type).toBeTruthy();
      }
    });

    it("brings a customer's message in as the port's message, and marks it read on the customer's phone", async () => {
      const phone = nextCustomer();
      const id = await h.customerWrites(phone, { kind: 'text', text: '¿Tienen taladros?' });
      const message = await until(() => inbound(id));
      expect(message).toMatchObject({ kind: 'message', from: phone, type: 'text', text: '¿Tienen taladros?' });
      expect(message.timestamp).toBeInstanceOf(Date);
      await h.line.markRead(id);
      await until(async () => (await h.phoneStatuses(phone)).some((entry) => entry.direction === 'from_customer' && entry.status === 'read'));
    });

    it("downloads an inbound picture's bytes from the provider", async () => {
      const phone = nextCustomer();
      const id = await h.customerWrites(phone, { kind: 'image', data: PNG, contentType: 'image/png' });
      const message = await until(() => inbound(id));
      expect(message).toMatchObject({ type: 'image', media: { contentType: expect.stringContaining('image/png') as unknown } });
      const media = await h.line.downloadMedia(message.media!);
      expect(media.data.equals(PNG)).toBe(true);
    });

    /** One approved template for the sends that need one, submitted and reviewed once. */
    let approved: Promise<ProviderTemplate> | undefined;
    const approvedTemplate = () =>
      (approved ??= (async () => {
        const template = await h.line.templates.submit({
          name: `contrato_aprobada_${Date.now()}`,
          category: 'UTILITY',
          languageCode: 'es',
          header: null,
          bodyText: 'Hola {{1}}, tenemos novedades.',
          footer: null,
          buttons: [],
          variablesSchema: { 1: { type: 'text', label: 'Nombre' } },
        });
        await until(async () => (await h.line.templates.list()).some((held) => held.id === template.id && held.status === 'APPROVED'));
        return template;
      })());

    it('says a number is not on WhatsApp in words people can act on, keeping the provider code', async () => {
      // Business-initiated, as a bulk send is: only a template may open a conversation.
      const template = await approvedTemplate();
      let failure;
      try {
        const { providerMessageId } = await h.line.send(h.numberNotOnWhatsApp, {
          type: 'template',
          templateProviderId: template.id,
          name: template.name,
          languageCode: template.languageCode,
          params: ['Ana'],
        });
        failure = (await until(() => statusesOf(providerMessageId).find((status) => status.status === 'failed'))).failure;
      } catch (error) {
        expect(error).toBeInstanceOf(ProviderError);
        failure = (error as ProviderError).failure;
      }
      // The reason is the code's own, in Spanish (its provider's table), never the provider's English words.
      expect(failure).toMatchObject({
        kind: 'not_on_whatsapp',
        reason: expect.stringMatching(/^(El cliente|WhatsApp) no .*WhatsApp/) as unknown,
        code: expect.stringMatching(/^\d+$/) as unknown,
      });
    });

    it('refuses a send with wrong credentials, for good, saying so', async () => {
      const error = await h.lineWithWrongCredentials.send(nextCustomer(), { type: 'text', text: 'Hola' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ retryable: false });
      expect(['unauthorized', 'token_expired']).toContain((error as ProviderError).failure?.kind);
    });

    it('runs the template lifecycle: submit, review (approved or rejected) announced by webhook, send, remove', async () => {
      const submitted = await h.line.templates.submit({
        name: `contrato_${Date.now()}`,
        category: 'UTILITY',
        languageCode: 'es',
        header: { type: 'TEXT', text: 'Pedido' },
        bodyText: 'Hola {{1}}, tu pedido {{2}} salió.',
        footer: 'Tienda Demo',
        buttons: [{ type: 'QUICK_REPLY', text: 'Recibido' }],
        variablesSchema: { 1: { type: 'text', label: 'Nombre' }, 2: { type: 'text', label: 'Pedido' } },
      });
      expect(submitted).toMatchObject({ status: 'PENDING', languageCode: 'es', reason: null });
      const rejected = await h.line.templates.submit({
        name: `contrato_no_${Date.now()}`,
        category: 'MARKETING',
        languageCode: 'es',
        header: null,
        bodyText: `Oferta para ${h.rejectWord}`,
        footer: null,
        buttons: [],
        variablesSchema: {},
      });

      const announced = (id: string) =>
        events().find(
          (event) =>
            event.kind === 'template-status' && (event.providerTemplateId === id || event.name === (id === submitted.id ? submitted.name : rejected.name)),
        );
      expect(await until(() => announced(submitted.id))).toMatchObject({ kind: 'template-status', status: 'APPROVED', reason: null });
      expect(await until(() => announced(rejected.id))).toMatchObject({ kind: 'template-status', status: 'REJECTED', reason: expect.any(String) as unknown });
      const listed = await h.line.templates.list();
      expect(listed.find((template) => template.id === submitted.id)).toMatchObject({ name: submitted.name, status: 'APPROVED' });
      expect(listed.find((template) => template.id === rejected.id)).toMatchObject({ status: 'REJECTED', reason: expect.any(String) as unknown });

      const phone = nextCustomer();
      const sent = await h.line.send(phone, {
        type: 'template',
        templateProviderId: submitted.id,
        name: submitted.name,
        languageCode: 'es',
        params: ['Ana', '#1042'],
      });
      await until(() => statusesOf(sent.providerMessageId).some((status) => status.status === 'delivered' || status.status === 'read'));

      await h.line.templates.remove(submitted.name, submitted.id);
      await expect(h.line.templates.remove(submitted.name, submitted.id)).resolves.toBeUndefined();
      expect((await h.line.templates.list()).some((template) => template.id === submitted.id)).toBe(false);
    });

    it('uploads a header sample and answers the handle the review needs', async () => {
      const handle = await h.line.templates.uploadSample({ data: PNG, mime: 'image/png', fileName: 'muestra.png' });
      expect(handle.length).toBeGreaterThan(5);
    });

    it('tells Probar conexión that a working account works', async () => {
      const checks = await h.line.check();
      expect(checks.length).toBeGreaterThan(0);
      expect(checks.every((check) => check.ok)).toBe(true);
    });
  });
}
