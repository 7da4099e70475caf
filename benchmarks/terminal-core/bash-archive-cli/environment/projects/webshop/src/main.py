print('shop')
