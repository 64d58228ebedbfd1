/**
 * The vector the fake Gemini and OpenAI-compatible servers give a text when no reply is scripted: a few numbers
 * from its characters, so the same text always gets the same vector and different texts usually differ.
 */
export function fakeEmbedding(text: string, dimensions = 8): number[] {
  const vector = Array.from({ length: dimensions }, () => 0);
  for (const [index, character] of [...text].entries()) vector[index % dimensions]! += (character.codePointAt(0)! % 97) / 97;
  return vector.map((value) => Math.round(value * 1000) / 1000);
}
