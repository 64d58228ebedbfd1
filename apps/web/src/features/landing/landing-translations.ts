/** Landing page texts, Spanish by default (spec 01 §1). */
const es = {
  nav: { features: 'Funciones', pricing: 'Precios', login: 'Iniciar sesión', register: 'Prueba gratis', dashboard: 'Ir a mi panel' },
  language: { toggle: 'English', title: 'Switch to English' },
  hero: {
    badge: 'CRM para WhatsApp Business',
    title: 'Convierte tus chats de WhatsApp en ventas',
    subtitle:
      'Embudo reúne las conversaciones de todo tu equipo en una bandeja unificada y las organiza como tarjetas en un embudo de ventas visual, con IA y automatización incluidas.',
    primary: 'Empieza gratis',
    secondary: 'Ya tengo una cuenta',
    note: '7 días de prueba gratis · Sin tarjeta de crédito · Lista en unos 2 minutos',
  },
  social: { figure: '1,200+', text: 'Más de 1.200 empresas ya venden por WhatsApp con Embudo' },
  mock: {
    columns: ['Nuevos', 'En negociación', 'Ganados'],
    cards: [
      ['María López', '¿Tienen envío a domicilio?'],
      ['Carlos Ruiz', 'Perfecto, ¿me envías la cotización?'],
      ['Lucía Gómez', '¡Gracias! Ya hice el pago.'],
      ['Pedro Díaz', 'Quiero agendar una cita'],
    ],
    ai: 'IA respondiendo…',
  },
  features: {
    title: 'Todo lo que tu equipo necesita para vender por WhatsApp',
    subtitle: 'Una sola herramienta para atender, dar seguimiento y cerrar ventas.',
    items: {
      inbox: { title: 'Bandeja unificada', text: 'Todas las conversaciones de WhatsApp de tu empresa en un solo lugar, compartidas con tu equipo.' },
      pipeline: { title: 'Embudo visual', text: 'Arrastra cada chat por las etapas de tu proceso de venta y no pierdas ninguna oportunidad.' },
      ai: { title: 'Asistente con IA', text: 'Responde al instante con un asistente de IA que conoce tu negocio, activable por chat o por columna.' },
      team: { title: 'Colaboración en equipo', text: 'Roles, acceso por embudo y notas internas para que todo el equipo trabaje coordinado.' },
      templates: { title: 'Mensajes con plantillas', text: 'Plantillas aprobadas por WhatsApp para retomar conversaciones y hacer envíos masivos.' },
      automation: {
        title: 'Automatización sin código',
        text: 'Crea bots con un editor visual: menús, agendamiento y cobranza sin escribir una línea de código.',
      },
    },
  },
  pricing: {
    title: 'Planes simples y transparentes',
    subtitle: 'Los planes de pago incluyen 7 días de prueba gratis, sin tarjeta de crédito.',
    perMonth: '/mes',
    popular: 'Más popular',
    trial: '7 días de prueba gratis',
    start: 'Empieza gratis',
    contact: 'Hablemos',
    contactSubject: 'Plan Enterprise para mi empresa',
    plans: {
      starter: {
        name: 'Starter',
        price: '$29',
        description: 'Para empezar a ordenar tus ventas.',
        features: ['1 número de WhatsApp', 'Hasta 2 miembros del equipo', 'Bandeja unificada y embudo visual', 'Mensajes con plantillas'],
      },
      pro: {
        name: 'Pro',
        price: '$79',
        description: 'Para equipos que quieren crecer.',
        features: ['Hasta 3 números de WhatsApp', 'Hasta 10 miembros del equipo', 'Asistente con IA', 'Bot de automatización'],
      },
      enterprise: {
        name: 'Enterprise',
        price: 'Precio personalizado',
        description: 'Para operaciones a gran escala.',
        features: ['Números ilimitados', 'Miembros ilimitados', 'Todo lo incluido en Pro', 'Acompañamiento dedicado'],
      },
    },
  },
  cta: {
    title: '¿Listo para vender más por WhatsApp?',
    text: 'Crea tu cuenta en unos 2 minutos. 7 días de prueba gratis, sin tarjeta de crédito.',
    button: 'Crear mi cuenta gratis',
  },
  footer: { rights: 'Todos los derechos reservados.' },
};

type Translation = typeof es;

const en: Translation = {
  nav: { features: 'Features', pricing: 'Pricing', login: 'Log in', register: 'Free trial', dashboard: 'Go to my dashboard' },
  language: { toggle: 'Español', title: 'Cambiar a español' },
  hero: {
    badge: 'CRM for WhatsApp Business',
    title: 'Turn your WhatsApp chats into sales',
    subtitle:
      'Embudo brings your whole team’s conversations into one unified inbox and organizes them as cards on a visual sales pipeline, with AI and automation built in.',
    primary: 'Start for free',
    secondary: 'I already have an account',
    note: '7-day free trial · No credit card required · Ready in about 2 minutes',
  },
  social: { figure: '1,200+', text: 'Over 1,200 businesses already sell on WhatsApp with Embudo' },
  mock: {
    columns: ['New', 'Negotiating', 'Won'],
    cards: [
      ['María López', 'Do you deliver to my address?'],
      ['Carlos Ruiz', 'Great, can you send me the quote?'],
      ['Lucía Gómez', 'Thanks! I already paid.'],
      ['Pedro Díaz', 'I’d like to book an appointment'],
    ],
    ai: 'AI replying…',
  },
  features: {
    title: 'Everything your team needs to sell on WhatsApp',
    subtitle: 'One tool to answer, follow up and close deals.',
    items: {
      inbox: { title: 'Unified inbox', text: 'Every WhatsApp conversation of your business in one place, shared with your team.' },
      pipeline: { title: 'Visual pipeline', text: 'Drag each chat through the stages of your sales process and never miss an opportunity.' },
      ai: { title: 'AI assistant', text: 'Reply instantly with an AI assistant that knows your business, switched on per chat or per column.' },
      team: { title: 'Team collaboration', text: 'Roles, per-funnel access and internal notes so the whole team works in sync.' },
      templates: { title: 'Template messages', text: 'WhatsApp-approved templates to restart conversations and send bulk messages.' },
      automation: { title: 'No-code automation', text: 'Build bots in a visual editor: menus, scheduling and billing without writing a line of code.' },
    },
  },
  pricing: {
    title: 'Simple, transparent pricing',
    subtitle: 'Paid plans include a 7-day free trial, no credit card required.',
    perMonth: '/month',
    popular: 'Most popular',
    trial: '7-day free trial',
    start: 'Start for free',
    contact: 'Talk to us',
    contactSubject: 'Enterprise plan for my company',
    plans: {
      starter: {
        name: 'Starter',
        price: '$29',
        description: 'To start organizing your sales.',
        features: ['1 WhatsApp number', 'Up to 2 team members', 'Unified inbox and visual pipeline', 'Template messages'],
      },
      pro: {
        name: 'Pro',
        price: '$79',
        description: 'For teams that want to grow.',
        features: ['Up to 3 WhatsApp numbers', 'Up to 10 team members', 'AI assistant', 'Automation bot'],
      },
      enterprise: {
        name: 'Enterprise',
        price: 'Custom price',
        description: 'For large-scale operations.',
        features: ['Unlimited numbers', 'Unlimited members', 'Everything in Pro', 'Dedicated support'],
      },
    },
  },
  cta: {
    title: 'Ready to sell more on WhatsApp?',
    text: 'Create your account in about 2 minutes. 7-day free trial, no credit card required.',
    button: 'Create my free account',
  },
  footer: { rights: 'All rights reserved.' },
};

export const landingTranslations = { es: { translation: es }, en: { translation: en } } as const;
export type LandingLanguage = keyof typeof landingTranslations;
