// Helpers for browser tests: find the R3F canvas and compare screenshots pixel by pixel.

/** Waits until `root` holds a sized <canvas> and returns it. */
export async function waitForCanvas(root: ParentNode, timeoutMs = 10_000): Promise<HTMLCanvasElement> {
  const start = Date.now();
  for (;;) {
    const canvas = root.querySelector('canvas');
    if (canvas && canvas.width > 0 && canvas.height > 0) return canvas;
    if (Date.now() - start > timeoutMs) throw new Error('no sized <canvas> appeared');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Decodes a base64 PNG into RGBA pixels. */
export async function decodePng(base64: string): Promise<ImageData> {
  const image = new Image();
  image.src = `data:image/png;base64,${base64}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext('2d')!;
  context.drawImage(image, 0, 0);
  return context.getImageData(0, 0, canvas.width, canvas.height);
}

/** Share of pixels whose colour differs clearly from the top-left pixel (the background). */
export async function describePicture(base64: string): Promise<{ nonBackgroundShare: number }> {
  const { data } = await decodePng(base64);
  let differing = 0;
  for (let i = 0; i < data.length; i += 4) {
    const d = Math.abs(data[i]! - data[0]!) + Math.abs(data[i + 1]! - data[1]!) + Math.abs(data[i + 2]! - data[2]!);
    if (d > 24) differing++;
  }
  return { nonBackgroundShare: differing / (data.length / 4) };
}

/** Share of pixels that differ clearly between two screenshots of the same size. */
export async function comparePictures(a: string, b: string): Promise<number> {
  const [pa, pb] = await Promise.all([decodePng(a), decodePng(b)]);
  if (pa.width !== pb.width || pa.height !== pb.height) return 1;
  let differing = 0;
  for (let i = 0; i < pa.data.length; i += 4) {
    const d = Math.abs(pa.data[i]! - pb.data[i]!) + Math.abs(pa.data[i + 1]! - pb.data[i + 1]!) + Math.abs(pa.data[i + 2]! - pb.data[i + 2]!);
    if (d > 24) differing++;
  }
  return differing / (pa.data.length / 4);
}
