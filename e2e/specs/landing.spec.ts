import { expect, test } from '@playwright/test';

test('landing page shows plans and switches between Spanish and English', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText('$29').first()).toBeVisible();
  await expect(page.getByText('$79').first()).toBeVisible();
  await expect(page.getByText(/1,200\+/).first()).toBeVisible();
  const spanishHeading = await page.getByRole('heading', { level: 1 }).innerText();

  await page.getByTestId('language-toggle').click();
  const englishHeading = await page.getByRole('heading', { level: 1 }).innerText();
  expect(englishHeading).not.toBe(spanishHeading);
  await expect(page.getByText(/1,200\+/).first()).toBeVisible();
  await expect(page.getByText(/about 2 minutes/i).first()).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(englishHeading);
  await page.getByTestId('language-toggle').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(spanishHeading);
  await expect(page.getByText(/unos 2 minutos/i).first()).toBeVisible();
});

test('unknown paths go back to the landing page and the tenant app needs a session', async ({ page }) => {
  await page.goto('/no-existe/para-nada');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/t/demo/agenda');
  await expect(page).toHaveURL(/\/login$/);
});
