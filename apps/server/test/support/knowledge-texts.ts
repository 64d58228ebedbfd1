/**
 * A knowledge file larger than the assistant's knowledge budget, so the search has to pick passages: a shop's manual
 * of products and care, with `fact` once in its middle (and words about other things all around it).
 */
export function largeKnowledgeFile(fact: string): string {
  const materials = ['algodón', 'lino', 'lana merino', 'seda', 'poliéster reciclado', 'mezclilla', 'cuero vegano', 'bambú'];
  const garments = ['camisa', 'pantalón', 'vestido', 'chaqueta', 'bufanda', 'falda', 'suéter', 'abrigo', 'chaleco', 'blusa'];
  const care = ['Lavar a mano con agua fría.', 'No usar secadora.', 'Planchar a temperatura media.', 'Secar a la sombra.', 'Guardar doblado.'];
  const lines: string[] = [];
  for (let index = 0; index < 300; index++) {
    const garment = garments[index % garments.length]!;
    const material = materials[(index * 3) % materials.length]!;
    lines.push(
      `Modelo ${index + 1}: ${garment} de ${material}, corte ${index % 2 ? 'recto' : 'holgado'}, diseñado en nuestro taller. ${care[index % care.length]}`,
    );
    if (index === 170) lines.push(fact);
  }
  return ['# Catálogo y cuidados', ...lines].join('\n');
}
