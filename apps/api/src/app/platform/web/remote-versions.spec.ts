import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppConfig, loadAppConfig } from '../../app-config';
import { RemoteVersions } from './remote-versions';
import { WebAppsService } from './web-apps.service';

describe('remote versions (REMOTES_DIR/current.json)', () => {
  let dir: string;

  /** Stores a version of `name` as `npm run remote:deploy` does (its folder with an mf-manifest.json). */
  const store = (name: string, version: string) => {
    fs.mkdirSync(path.join(dir, name, version), { recursive: true });
    fs.writeFileSync(path.join(dir, name, version, 'mf-manifest.json'), JSON.stringify({ name }));
  };
  /** Switches like `npm run remote:use`: writes a new file, then renames it over current.json. */
  const switchTo = (content: string) => {
    fs.writeFileSync(path.join(dir, 'current.json.tmp'), content);
    fs.renameSync(path.join(dir, 'current.json.tmp'), path.join(dir, 'current.json'));
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-remotes-'));
    store('marketing', '20261123-100000-aaaa1111');
    store('marketing', '20261123-110000-bbbb2222');
    store('dashboard', '20261123-100000-cccc3333');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('has no versions while there is no current.json (or no folder at all)', () => {
    expect(new RemoteVersions(dir).current()).toEqual({});
    expect(new RemoteVersions(path.join(dir, 'nowhere')).current()).toEqual({});
  });

  it('re-reads current.json when it changes: forward, back, and removed', () => {
    const versions = new RemoteVersions(dir);
    switchTo('{"marketing":"20261123-100000-aaaa1111"}');
    expect(versions.current()).toEqual({ marketing: '20261123-100000-aaaa1111' });
    switchTo('{"marketing":"20261123-110000-bbbb2222","dashboard":"20261123-100000-cccc3333"}');
    expect(versions.current()).toEqual({
      marketing: '20261123-110000-bbbb2222',
      dashboard: '20261123-100000-cccc3333',
    });
    switchTo('{"marketing":"20261123-100000-aaaa1111"}');
    expect(versions.current()).toEqual({ marketing: '20261123-100000-aaaa1111' });
    fs.rmSync(path.join(dir, 'current.json'));
    expect(versions.current()).toEqual({});
  });

  it('also sees a file edited in place', () => {
    const versions = new RemoteVersions(dir);
    const file = path.join(dir, 'current.json');
    fs.writeFileSync(file, '{"marketing":"20261123-100000-aaaa1111"}');
    expect(versions.current().marketing).toBe('20261123-100000-aaaa1111');
    fs.writeFileSync(file, '{"marketing":"20261123-110000-bbbb2222"}');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(versions.current().marketing).toBe('20261123-110000-bbbb2222');
  });

  it('ignores unknown remotes, versions that are not stored and path tricks; a broken file keeps the last answer', () => {
    const versions = new RemoteVersions(dir);
    switchTo(
      '{"marketing":"20261123-100000-aaaa1111","dashboard":"never-deployed","shop":"x","referral":"../marketing/20261123-100000-aaaa1111"}',
    );
    expect(versions.current()).toEqual({ marketing: '20261123-100000-aaaa1111' });
    switchTo('{"marketing": ');
    expect(versions.current()).toEqual({ marketing: '20261123-100000-aaaa1111' });
    switchTo('["marketing"]');
    expect(versions.current()).toEqual({ marketing: '20261123-100000-aaaa1111' });
  });

  it('/remotes.json: REMOTE_<NAME>_URL wins, then the current version, then the API’s own build', () => {
    const config = loadAppConfig({
      DATABASE_URL: 'postgres://grove@localhost/grove',
      REMOTES_DIR: dir,
      REMOTE_DASHBOARD_URL: 'https://cdn.example.com/dashboard/mf-manifest.json',
    });
    expect(config).toBeInstanceOf(AppConfig);
    const web = new WebAppsService(config);
    expect(web.remotesManifest().marketing).toBe('/remotes/marketing/mf-manifest.json');
    switchTo('{"marketing":"20261123-110000-bbbb2222","dashboard":"20261123-100000-cccc3333"}');
    expect(web.remotesManifest()).toEqual({
      marketing: '/remotes/marketing@20261123-110000-bbbb2222/mf-manifest.json',
      dashboard: 'https://cdn.example.com/dashboard/mf-manifest.json',
      integrations: '/remotes/integrations/mf-manifest.json',
      referral: '/remotes/referral/mf-manifest.json',
    });
  });
});
