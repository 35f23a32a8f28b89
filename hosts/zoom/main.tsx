import { mountConsole } from '../../src/main';
import { createZoomHost } from './host';

mountConsole(createZoomHost());
