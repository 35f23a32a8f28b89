import { mountConsole } from '../../src/main';
import { browserHost } from './host';

mountConsole(browserHost);
