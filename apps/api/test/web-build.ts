import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A stand-in for the web build in a new temporary folder (for WEB_DIST_DIR): the shell's
 * index.html (body 'the shell') and the referral remote's inline assets of one server-rendered
 * page, `referral/<folder>/page.js` and `page.css`. The caller removes the folder.
 * @param folder the page's asset folder, e.g. `join-page`, `member-page`
 * @returns the folder's path
 */
export function writeWebBuild(folder: string, assets: { script: string; style: string }): string {
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), `grove-${folder}-`));
  fs.mkdirSync(path.join(webDir, 'referral', folder), { recursive: true });
  fs.mkdirSync(path.join(webDir, 'shell'), { recursive: true });
  fs.writeFileSync(path.join(webDir, 'referral', folder, 'page.js'), assets.script);
  fs.writeFileSync(path.join(webDir, 'referral', folder, 'page.css'), assets.style);
  fs.writeFileSync(
    path.join(webDir, 'shell/index.html'),
    '<!doctype html><html><head></head><body>the shell</body></html>',
  );
  return webDir;
}
