import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from './landing-i18n.ts';
import { installFakeApi } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { LANGUAGE_STORAGE_KEY } from './landing-language.ts';
import { CONTACT_EMAIL } from './enterprise-contact.ts';

afterEach(async () => {
  await act(() => i18n.changeLanguage('es'));
});

/** The landing loads on demand: the page is there once its code is. */
async function openLanding() {
  renderApp('/');
  await screen.findByRole('heading', { level: 1 });
}

describe('landing page', () => {
  it('speaks Spanish by default with plans, trial, sign-up time and social proof', async () => {
    installFakeApi({});
    await openLanding();
    expect(screen.getByRole('heading', { level: 1, name: 'Convierte tus chats de WhatsApp en ventas' })).toBeTruthy();
    for (const title of [
      'Bandeja unificada',
      'Embudo visual',
      'Asistente con IA',
      'Colaboración en equipo',
      'Mensajes con plantillas',
      'Automatización sin código',
    ]) {
      expect(screen.getByRole('heading', { name: title })).toBeTruthy();
    }
    expect(screen.getAllByText('$29')).toHaveLength(1);
    expect(screen.getAllByText('$79')).toHaveLength(1);
    expect(screen.getByText('Precio personalizado')).toBeTruthy();
    expect(screen.getByText('Hasta 2 miembros del equipo')).toBeTruthy();
    expect(screen.getByText('Hasta 10 miembros del equipo')).toBeTruthy();
    expect(screen.getByText('1,200+')).toBeTruthy();
    expect(screen.getByText(/Más de 1\.200 empresas/)).toBeTruthy();
    expect(screen.getAllByText(/unos 2 minutos/).length).toBeGreaterThan(0);
    expect(screen.getAllByRole('link', { name: 'Iniciar sesión' })[0]?.getAttribute('href')).toBe('/login');
    expect(screen.getAllByRole('link', { name: 'Empieza gratis' })[0]?.getAttribute('href')).toBe('/register');
  });

  it("sends Enterprise's Hablemos to an e-mail to sales, not to the self-service sign-up", async () => {
    installFakeApi({});
    await openLanding();
    const talk = screen.getByRole('link', { name: 'Hablemos' });
    expect(talk.getAttribute('href')).toBe(`mailto:${CONTACT_EMAIL}?subject=Plan%20Enterprise%20para%20mi%20empresa`);
    expect(CONTACT_EMAIL).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
  });

  it('switches to English and remembers the choice', async () => {
    installFakeApi({});
    await openLanding();
    fireEvent.click(screen.getByTestId('language-toggle'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Turn your WhatsApp chats into sales' })).toBeTruthy();
    expect(screen.getByText('1,200+')).toBeTruthy();
    expect(screen.getByText('Unified inbox')).toBeTruthy();
    expect(screen.getAllByText(/7-day free trial/).length).toBeGreaterThan(0);
    expect(screen.getAllByText(/about 2 minutes/).length).toBeGreaterThan(0);
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(screen.getByTestId('language-toggle').textContent).toBe('Español');

    fireEvent.click(screen.getByTestId('language-toggle'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Convierte tus chats de WhatsApp en ventas' })).toBeTruthy();
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('es');
  });
});
