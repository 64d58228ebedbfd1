import { expect, type Locator, type Page } from '@playwright/test';

/** Bots Studio's list and flow editor (spec 02 §2 Bots Studio, Bot editor). */
export class BotEditorPage {
  constructor(private readonly page: Page) {}

  canvas() {
    return this.page.getByTestId('flow-canvas');
  }

  nodes(type: string) {
    return this.page.locator('.react-flow__node').filter({ has: this.page.getByTestId(`flow-node-${type}`) });
  }

  /** Drags a node from the palette and drops it with its top-left corner at (x, y) of the canvas. */
  async dropNode(type: string, at: { x: number; y: number }) {
    const before = await this.nodes(type).count();
    await this.page.getByTestId(`palette-${type}`).dragTo(this.canvas(), { targetPosition: at });
    await expect(this.nodes(type)).toHaveCount(before + 1);
    return this.nodes(type).nth(before);
  }

  /** Drags from an output handle to another node's input handle, as a person connects two nodes. */
  async connect(from: Locator, to: Locator) {
    const start = await from.boundingBox();
    const end = await to.locator('.react-flow__handle.target').boundingBox();
    if (!start || !end) throw new Error('handle not visible');
    await this.page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 12 });
    await this.page.mouse.up();
  }

  /** A node's single output handle. */
  output(node: Locator) {
    return node.locator('.react-flow__handle.source').first();
  }

  /** The output handle beside an option (its row), by the option's position. */
  optionOutput(node: Locator, index: number) {
    return node.locator('[data-testid^="branch-"]').nth(index).locator('.react-flow__handle.source');
  }

  edges() {
    return this.page.locator('.react-flow__edge');
  }

  toast(text: string) {
    return this.page.getByText(text, { exact: true });
  }
}
