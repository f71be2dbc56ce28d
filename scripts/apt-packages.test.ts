import { describe, expect, it } from 'vitest'
import { aptArguments, missingPackages } from './apt-packages.mjs'

const need = (pkg: string, present = false) => ({ pkg, present: () => present })

describe('the packages ensure-system asks apt for', () => {
  it('names each missing package once, in app mode too (the app needs were listed twice)', () => {
    const needs = {
      app: [
        need('ffmpeg'),
        need('espeak-ng', true),
        need('tesseract-ocr-eng'),
        need('tesseract-ocr-eng'),
      ],
      test: [need('chromium'), need('ffmpeg')],
    }
    expect(missingPackages(needs, 'app')).toEqual(['ffmpeg', 'tesseract-ocr-eng'])
    expect(missingPackages(needs, 'test')).toEqual(['ffmpeg', 'tesseract-ocr-eng', 'chromium'])
  })

  it('waits for the dpkg lock another package manager holds instead of failing at once', () => {
    expect(aptArguments('update')).toEqual(['-o', 'DPkg::Lock::Timeout=600', 'update'])
    expect(aptArguments('install', ['ffmpeg'])).toEqual([
      '-o',
      'DPkg::Lock::Timeout=600',
      'install',
      '-y',
      '--no-install-recommends',
      'ffmpeg',
    ])
  })
})
