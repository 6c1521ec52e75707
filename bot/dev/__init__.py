"""Tools for developers: the local playground, the simulated server the tests share, and the
database tool."""
